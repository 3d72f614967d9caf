package io.zkgroups.rebalancer.assign;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionAssignorTest {

    @Test
    void rangeAndRoundRobinAreTheTwoStrategies() {
        assertThat(PartitionAssignor.forStrategy("range")).isInstanceOf(RangeAssignor.class)
                .extracting(PartitionAssignor::name).isEqualTo("range");
        assertThat(PartitionAssignor.forStrategy("roundrobin")).isInstanceOf(RoundRobinAssignor.class)
                .extracting(PartitionAssignor::name).isEqualTo("roundrobin");
        assertThat(PartitionAssignor.forStrategy("sticky")).isInstanceOf(StickyAssignor.class)
                .extracting(PartitionAssignor::name).isEqualTo("sticky");
    }

    @ParameterizedTest
    @ValueSource(strings = {"RoundRobin", "round-robin", "Range", "range ", "", "Sticky"})
    void rejectsAnyOtherValueInsteadOfSilentlyFallingBackToRangeLike082(String strategy) {
        assertThatThrownBy(() -> PartitionAssignor.forStrategy(strategy))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown partition.assignment.strategy '" + strategy + "': allowed values are 'range',"
                        + " 'roundrobin' and 'sticky' (exact, case-sensitive; 0.8.2.2 would silently treat this value as"
                        + " 'range')");
    }

    @Test
    void rejectsNull() {
        assertThatThrownBy(() -> PartitionAssignor.forStrategy(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("partition.assignment.strategy");
    }
}
