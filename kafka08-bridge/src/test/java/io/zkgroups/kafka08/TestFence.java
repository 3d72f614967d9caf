package io.zkgroups.kafka08;

import io.zkgroups.rebalancer.consumer.HandOutFence;
import io.zkgroups.rebalancer.group.OwnershipFence.HandOut;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A {@link HandOutFence} whose verdicts a test sets: every partition is fetched under epoch 1 and may be handed out,
 * until the test says otherwise. Counts the waits it is asked for.
 */
final class TestFence implements HandOutFence {

    static final long EPOCH = 1;

    private final Map<TopicPartition, HandOut> verdicts = new HashMap<>();
    private int waits;

    synchronized void set(TopicPartition partition, HandOut verdict) {
        verdicts.put(partition, verdict);
        notifyAll();
    }

    synchronized int waits() {
        return waits;
    }

    @Override
    public long epochOf(TopicPartition partition) {
        return EPOCH;
    }

    @Override
    public synchronized HandOut check(TopicPartition partition, long epoch) {
        return epoch != EPOCH ? HandOut.NEVER : verdicts.getOrDefault(partition, HandOut.ALLOWED);
    }

    @Override
    public synchronized void awaitChange(long maxNanos) throws InterruptedException {
        waits++;
        notifyAll();
        TimeUnit.NANOSECONDS.timedWait(this, maxNanos);
    }
}
