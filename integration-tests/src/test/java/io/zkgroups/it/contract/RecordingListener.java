package io.zkgroups.it.contract;

import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A rebalance listener that writes down its non-empty calls with a sequence number shared by every listener of a test
 * (one clock to order two members' calls by).
 */
final class RecordingListener implements ConsumerRebalanceListener {

    enum Kind { ASSIGNED, REVOKED, LOST }

    record Call(Kind kind, Set<Integer> partitions, long sequence) {
    }

    private final AtomicLong clock;
    private final List<Call> calls = new ArrayList<>();

    RecordingListener(AtomicLong clock) {
        this.clock = clock;
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        record(Kind.ASSIGNED, partitions);
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        record(Kind.REVOKED, partitions);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        record(Kind.LOST, partitions);
    }

    /** An empty call says nothing about partitions (KafkaConsumer makes them after every rebalance; see the docs). */
    private synchronized void record(Kind kind, Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            return;
        }
        Set<Integer> numbers = new TreeSet<>();
        partitions.forEach(tp -> numbers.add(tp.partition()));
        calls.add(new Call(kind, numbers, clock.incrementAndGet()));
    }

    synchronized List<Call> calls() {
        return new ArrayList<>(calls);
    }
}
