package io.zkgroups.registry.store;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionOwnerTest {

    private static final TopicAndPartition TP = new TopicAndPartition("orders", 3);

    @Test
    void aThreadIdOwnerIsItsConsumersThread() {
        PartitionOwner owner = new PartitionOwner(TP, "g_c1-2", 7);

        assertThat(owner.threadAmong(List.of(new ConsumerId("g_c1")))).contains(new ThreadId(new ConsumerId("g_c1"), 2));
        assertThat(owner.memberAmong(List.of(new ConsumerId("g_c1")))).contains(new ConsumerId("g_c1"));
    }

    @Test
    void aConsumerIdWithoutThreadSuffixIsThatMembersThreadZero() {
        // kafka-node writes its consumer id, group_<uuid>, as owner data
        String id = "g_0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d";
        PartitionOwner owner = new PartitionOwner(TP, id, 7);

        assertThat(owner.thread()).as("read as CID-n alone").isEmpty();
        assertThat(owner.threadAmong(List.of(new ConsumerId(id)))).contains(new ThreadId(new ConsumerId(id), 0));
        assertThat(owner.memberAmong(List.of(new ConsumerId(id)))).contains(new ConsumerId(id));
    }

    @Test
    void aRegisteredIdEndingInDashDigitsIsThatMemberNotAnotherOnesThread() {
        PartitionOwner owner = new PartitionOwner(TP, "g_host-1234", 7);
        List<ConsumerId> members = List.of(new ConsumerId("g_host-1234"));

        assertThat(owner.threadAmong(members)).contains(new ThreadId(new ConsumerId("g_host-1234"), 0));
    }

    @Test
    void anOwnerOfNoRegisteredMemberBelongsToNone() {
        PartitionOwner owner = new PartitionOwner(TP, "g_gone", 7);

        assertThat(owner.memberAmong(List.of(new ConsumerId("g_other")))).isEmpty();
    }
}
