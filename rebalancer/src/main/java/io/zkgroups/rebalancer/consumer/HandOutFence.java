package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.group.OwnershipFence;
import io.zkgroups.rebalancer.group.OwnershipFence.HandOut;
import org.apache.kafka.common.TopicPartition;

/**
 * The ownership fence for code that hands records out later than {@link ZkGroupConsumer#poll} returned them, and on
 * other threads: the 0.8 API's streams queue fetched records for the application's consumer threads. Such code tags
 * what it queues with the grant's epoch when it is fetched ({@link #epochOf}, on the poll thread) and asks
 * {@link #check} before each record goes out (on any thread): a hand-out told {@link HandOut#WAIT} waits
 * ({@link #awaitChange}) and asks again — the records are not fetched again, so dropping them would lose them — and
 * one told {@link HandOut#NEVER} drops what it queued of that epoch: the next owner starts at the committed offset.
 * See {@link OwnershipFence} and docs/fence.md.
 */
public interface HandOutFence {

    /** The epoch of the grant {@code partition} is fetched under now, 0 if it is not fetched. Poll thread only. */
    long epochOf(TopicPartition partition);

    /** Whether a record of {@code partition} fetched under {@code epoch} may be handed out now. Any thread. */
    HandOut check(TopicPartition partition, long epoch);

    /**
     * {@link #check} of one partition and epoch as an object to ask before each record: it may keep what does not
     * change between records (the grant, until some grant changes). Used by one thread at a time.
     */
    default Check checkOf(TopicPartition partition, long epoch) {
        return () -> check(partition, epoch);
    }

    /** See {@link #checkOf}. */
    interface Check {
        HandOut verdict();
    }

    /** Waits until a grant changes or the lease is renewed, at most {@code maxNanos}. Any thread. */
    void awaitChange(long maxNanos) throws InterruptedException;
}
