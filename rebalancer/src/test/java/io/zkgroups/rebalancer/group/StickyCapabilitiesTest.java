package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.codec.MemberRegistrationCodec;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class StickyCapabilitiesTest {

    private static GroupMemberConfig config(String strategy) {
        return GroupMemberConfig.of("g", new ConsumerId("g_a"), Subscription.topics(Map.of("T", 1)))
                .withAssignmentStrategy(strategy);
    }

    @Test
    void aStickyMemberAdvertisesStickyVersionOneInAFixedOrder() {
        assertThat(config("sticky").capabilities()).containsExactly(
                Map.entry("assignor", "sticky"), Map.entry("sticky", "1"), Map.entry("cutover", "1"), Map.entry("v", "1"));
        String json = new String(MemberRegistrationCodec.encode(MemberRegistration.of(
                Subscription.topics(Map.of("T", 1)), 1L).withCapabilities(config("sticky").capabilities())),
                StandardCharsets.UTF_8);
        assertThat(json).endsWith(",\"zkgroups\":{\"assignor\":\"sticky\",\"sticky\":\"1\",\"cutover\":\"1\",\"v\":\"1\"}}");
    }

    @Test
    void rangeAndRoundRobinMembersNeverAdvertiseSticky() {
        assertThat(config("range").capabilities()).isEmpty();
        assertThat(config("range").withAdvertisedCapabilities(true).capabilities()).doesNotContainKey("sticky");
        assertThat(config("roundrobin").withAdvertisedCapabilities(true).capabilities()).doesNotContainKey("sticky");
    }
}
