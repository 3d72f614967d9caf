package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.ConsumerId;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A member's own share ({@link PartitionAssignor#assignTo}) is exactly its rows of the whole group's assignment,
 * for every strategy, every member and one that is not in the group; where the strategy refuses the group, both
 * refuse it.
 */
class OwnSharePropertiesTest {

    @Provide
    Arbitrary<GroupSnapshot> groups() {
        return GroupArbitraries.anyGroup();
    }

    @Property(tries = 300)
    void aMembersShareIsItsRowsOfTheWholeAssignment(@ForAll("groups") GroupSnapshot group) {
        for (GroupSnapshot variant : List.of(group, group.withStickyMembers(group.members()))) {
            for (AssignorType type : Assignors.all()) {
                assertSharesMatch(type.create(), variant);
            }
        }
    }

    private static void assertSharesMatch(PartitionAssignor assignor, GroupSnapshot group) {
        List<ConsumerId> asked = new ArrayList<>(group.members());
        asked.add(new ConsumerId("g_not-a-member"));
        Assignment whole;
        try {
            whole = assignor.assign(group);
        } catch (AssignmentRefusedException refused) {
            for (ConsumerId member : group.members()) {
                assertThatThrownBy(() -> assignor.assignTo(group, member))
                        .as("%s refuses %s for %s too", assignor.name(), group, member)
                        .isInstanceOf(refused.getClass());
            }
            return;
        }
        for (ConsumerId member : asked) {
            assertThat(assignor.assignTo(group, member))
                    .as("%s's share of %s under %s", member, group, assignor.name())
                    .isEqualTo(whole.forConsumer(member).owners());
        }
    }
}
