package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AssignedPartitionTest {

    @Test
    void aHoldIsLookedAtAgainAfterASecondThenTwiceAsLateUpToThirtySeconds() {
        AssignedPartition.Hold hold = AssignedPartition.Hold.first("unreachable", 0);
        List<Long> delays = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            delays.add(hold.delay.getSeconds());
            hold = hold.again("still unreachable", 0);
        }
        assertThat(delays).containsExactly(1L, 2L, 4L, 8L, 16L, 30L, 30L);
        assertThat(hold.retryAtNanos).isEqualTo(Duration.ofSeconds(30).toNanos());
        assertThat(hold.reason).isEqualTo("still unreachable");
    }

    @Test
    void aPartitionFetchedAgainForgetsItsHoldAndStartsFromTheOffsetFound() {
        AssignedPartition a = new AssignedPartition(new TopicPartition("t", 3), 7, 0);
        a.hold = AssignedPartition.Hold.first("unreachable", 0);
        assertThat(a.isHeld()).isTrue();

        a.fetchFrom(42L);

        assertThat(a.isFetched()).isTrue();
        assertThat(a.position).isEqualTo(42L);
        assertThat(a.uncommittedFrom()).isEqualTo(42L);
        assertThat(a.registryName).isEqualTo(TopicAndPartition.of("t", 3));
    }
}
