package io.zkgroups.tool.group;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.store.Member;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class StrategyChoiceTest {

    private static Member member(String name, Map<String, String> capabilities) {
        MemberRegistration registration = MemberRegistration.of(Subscription.topics(Map.of("A", 1)), 1L)
                .withCapabilities(capabilities);
        return new Member(new ConsumerId("g_" + name), registration, 1L, 1L);
    }

    private static final Map<String, String> STICKY = Map.of("assignor", "sticky", "sticky", "1", "cutover", "1", "v", "1");

    @Test
    void aGroupOfStickyMembersIsCheckedAsSticky() {
        assertThat(StrategyChoice.choose(null, List.of(member("a", STICKY), member("b", STICKY))).strategy())
                .isEqualTo("sticky");
    }

    @Test
    void stickyMembersBesideA082MemberAreStillCheckedAsStickyWhichMeansRangeThere() {
        StrategyChoice choice = StrategyChoice.choose(null, List.of(member("a", STICKY), member("legacy", Map.of())));

        assertThat(choice.strategy()).isEqualTo("sticky");
        assertThat(choice.reason()).contains("range exactly while a member that does not advertise sticky");
    }

    @Test
    void withoutAdvertisingMembersItIsRange() {
        assertThat(StrategyChoice.choose(null, List.of(member("legacy", Map.of()))).strategy()).isEqualTo("range");
    }
}
