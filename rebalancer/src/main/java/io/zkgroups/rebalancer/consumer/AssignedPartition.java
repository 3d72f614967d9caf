package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.model.TopicAndPartition;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;

/**
 * One partition a {@link ZkGroupConsumer} was told it owns, as {@link SubscriptionState} keeps it: its grant (epoch,
 * stream), whether it is fetched or held, its position and the offset last committed. A <em>held</em> partition,
 * whose committed offset could not be read, is looked at again after 1 s, then twice as late each time, at most 30 s.
 */
final class AssignedPartition {

    private static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    private static final Duration MAX_RETRY = Duration.ofSeconds(30);

    /** Why a partition is held, and when to look again. */
    static final class Hold {
        final String reason;
        final long retryAtNanos;
        final Duration delay;

        /** The first hold, at {@code nowNanos}: look again after {@link #FIRST_RETRY}. */
        static Hold first(String reason, long nowNanos) {
            return new Hold(reason, FIRST_RETRY, nowNanos);
        }

        private Hold(String reason, Duration delay, long nowNanos) {
            this.reason = reason;
            this.delay = delay;
            this.retryAtNanos = nowNanos + delay.toNanos();
        }

        /** The hold after one more failed look at {@code nowNanos}: twice as long, at most {@link #MAX_RETRY}. */
        Hold again(String reason, long nowNanos) {
            Duration doubled = delay.multipliedBy(2);
            return new Hold(reason, doubled.compareTo(MAX_RETRY) > 0 ? MAX_RETRY : doubled, nowNanos);
        }
    }

    final long epoch;
    final int stream;
    /** The partition as the fence names it. */
    final TopicAndPartition registryName;
    /** Why it is held, and when to look again; null while it is fetched. */
    Hold hold;
    /** The next offset to hand out; null while not known (an offset reset not done yet, or held). */
    Long position;
    /** The offset last committed, or read from the store at the start; null if none. */
    Long committed;
    /** Without a committed offset, the first offset handed out in this tenure; null until then. */
    Long firstHandedOut;
    /** Whether {@link #committed} was written by this consumer in this tenure (not only read at the start). */
    boolean committedHere;

    AssignedPartition(TopicPartition tp, long epoch, int stream) {
        this.epoch = epoch;
        this.stream = stream;
        this.registryName = KafkaPartitions.toRegistry(tp);
    }

    boolean isFetched() {
        return hold == null;
    }

    boolean isHeld() {
        return hold != null;
    }

    /** Fetched from {@code committed} (null: reset) from now on. */
    void fetchFrom(Long committed) {
        hold = null;
        position = committed;
        this.committed = committed;
    }

    /** Where its uncommitted records begin: the offset last committed, else the first handed out; null if neither. */
    Long uncommittedFrom() {
        return committed != null ? committed : firstHandedOut;
    }
}
