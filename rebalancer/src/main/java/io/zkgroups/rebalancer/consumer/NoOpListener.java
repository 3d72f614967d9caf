package io.zkgroups.rebalancer.consumer;

import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;

import java.util.Collection;

/** The listener of a subscription made without one. */
final class NoOpListener implements ConsumerRebalanceListener {

    static final NoOpListener INSTANCE = new NoOpListener();

    private NoOpListener() {
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
    }
}
