package io.zkgroups.kafka08;

import io.zkgroups.rebalancer.consumer.HandOutFence;
import io.zkgroups.rebalancer.group.OwnershipFence.HandOut;
import io.zkgroups.registry.Time;
import kafka.common.KafkaException;
import kafka.consumer.ConsumerTimeoutException;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.nio.ByteBuffer;
import java.util.NoSuchElementException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * One stream's queue of chunks and the reading side of it, used by
 * the stream's one consumer thread through {@link kafka.consumer.ConsumerIterator}. The queue is bounded as 0.8.2.2
 * bounds it, in bytes: {@code queued.max.message.chunks} chunks of a full fetch ({@code fetch.message.max.bytes}) each.
 * A chunk here is what one poll brought of a partition, often much less than a fetch: counted in chunks, the stream
 * would run dry between polls. Records are handed out only
 * through the {@link HandOutLedger}: a chunk whose partition was revoked since it was fetched is dropped, whole.
 * <p>
 * Each record also passes the group's {@link HandOutFence} right before it goes out, because queued records go out
 * later than they were fetched: a chunk whose grant ended is dropped (at once, before the fetcher thread hears of
 * it), and while the grant's lease does not hold — a process that was frozen, a ZooKeeper link that went quiet —
 * the reader waits: those records were not fetched again, so they go out if the lease is renewed under the same
 * grant, and are dropped only once the grant ends.
 */
public final class StreamChannel {

    /** Longest wait on the fence between two looks at the queue (a shutdown ends a wait that soon). */
    private static final long FENCE_WAIT_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
    private final long capacityBytes;
    /** The bytes of the chunks queued now; added by the fetcher thread, taken away by the reader. */
    private final AtomicLong queuedBytes = new AtomicLong();
    private final HandOutLedger ledger;
    private final Time time;
    private final HandOutFence fence;
    private final long timeoutMs;
    private final Runnable onTake;
    /** The reader's state, touched by the consumer thread only. */
    private Chunk current;
    /** The fence's check of {@link #current}'s partition and epoch. */
    private HandOutFence.Check currentCheck;
    /** {@link #current}'s tenure, resolved once per chunk; null if it had ended by then. */
    private HandOutLedger.Tenure currentTenure;
    private int index;
    private boolean done;
    /** Why the fetcher stopped, set before the end is queued; null for a shutdown. */
    private volatile Throwable failure;

    /**
     * @param capacityBytes bytes of chunks queued at most: a chunk goes in while the queue holds less than that
     *                      (one always goes into an empty queue)
     * @param timeoutMs how long {@link #hasNext} waits for a record ({@code consumer.timeout.ms}); negative: forever
     * @param onTake    run after each chunk taken out of the queue (the fetcher may have one waiting for room)
     * @param time      the clock its waits are measured on
     */
    public StreamChannel(long capacityBytes, HandOutLedger ledger, HandOutFence fence, long timeoutMs, Runnable onTake,
                         Time time) {
        this.time = time;
        this.capacityBytes = capacityBytes;
        this.ledger = ledger;
        this.fence = fence;
        this.timeoutMs = timeoutMs;
        this.onTake = onTake;
    }

    // --- the fetcher's side ----------------------------------------------------------------------------------

    /** Queues {@code chunk} if there is room; returns false if the queue is full. Called by one thread only. */
    public boolean offer(Chunk chunk) {
        long queued = queuedBytes.get();
        if (queued > 0 && queued + chunk.bytes() > capacityBytes) {
            return false;
        }
        queuedBytes.addAndGet(chunk.bytes());
        queue.add(chunk);
        return true;
    }

    /**
     * Drops queued chunks that match (those of revoked partitions: they would be dropped when taken anyway); returns
     * how many.
     */
    public int purge(Predicate<Chunk> revoked) {
        int[] dropped = {0};
        queue.removeIf(chunk -> {
            boolean drop = revoked.test(chunk);
            if (drop) {
                dropped[0]++;
                queuedBytes.addAndGet(-chunk.bytes());
            }
            return drop;
        });
        return dropped[0];
    }

    /** Chunks queued now (0.8.2.2's {@code FetchQueueSize}). */
    public int queuedChunks() {
        int size = queue.size();
        return queue.peek() == Chunk.SHUTDOWN ? size - 1 : size;
    }

    /** Ends the stream: whatever is still queued is dropped, then the reader sees the end. */
    public void shutdown() {
        shutdown(null);
    }

    /**
     * Ends the stream as {@link #shutdown()}; with a {@code failure} (the fetcher stopped on it) the reader's
     * {@code hasNext} throws a {@link KafkaException} naming it, then and on every later call, instead of seeing an
     * end the application could take for its own shutdown.
     */
    public void shutdown(Throwable failure) {
        this.failure = failure;
        queue.clear();
        queuedBytes.set(0);
        queue.add(Chunk.SHUTDOWN);
    }

    // --- the consumer thread's side --------------------------------------------------------------------------

    /**
     * Whether a record is ready, waiting for one up to {@code consumer.timeout.ms}. False once the connector has
     * shut down.
     *
     * @throws ConsumerTimeoutException if no record came in time (the channel stays usable)
     * @throws KafkaException           if the connector's fetcher stopped on a failure
     */
    public boolean hasNext() {
        if (done) {
            return ended();
        }
        long deadline = timeoutMs < 0 ? Long.MAX_VALUE : time.nanoseconds() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true) {
            if (current != null && index < current.records().size() && currentTenure != null
                    && currentTenure.isCurrent()) {
                HandOut verdict = currentCheck.verdict();
                if (verdict == HandOut.ALLOWED) {
                    return true;
                }
                if (verdict == HandOut.WAIT && queue.peek() != Chunk.SHUTDOWN) {
                    awaitFence(deadline);
                    continue;
                }
            }
            current = null;
            Chunk next = take(deadline);
            if (next == Chunk.SHUTDOWN) {
                done = true;
                return ended();
            }
            current = next;
            currentTenure = ledger.tenureOf(next.partition(), next.tenure());
            currentCheck = fence.checkOf(next.partition(), next.epoch());
            index = 0;
        }
    }

    /**
     * Hands out the next record, recording its position in the ledger.
     *
     * @throws NoSuchElementException   if the connector has shut down
     * @throws ConsumerTimeoutException if no record came within {@code consumer.timeout.ms}
     */
    public ConsumerRecord<ByteBuffer, ByteBuffer> next() {
        while (true) {
            if (!hasNext()) {
                throw new NoSuchElementException("the consumer connector has been shut down");
            }
            ConsumerRecord<ByteBuffer, ByteBuffer> record = current.records().get(index++);
            if (currentTenure.handOut(record.offset() + 1)) {
                return record;
            }
            current = null; // revoked between hasNext() and now: none of this chunk goes out
        }
    }

    /** False: the stream has ended; unless the fetcher stopped on a failure, which is thrown. */
    private boolean ended() {
        Throwable cause = failure;
        if (cause != null) {
            throw new KafkaException("the consumer connector's fetcher stopped: " + cause, cause);
        }
        return false;
    }

    /** Waits for the fence to change, up to the reader's deadline; throws once that has passed. */
    private void awaitFence(long deadline) {
        long left = deadline - time.nanoseconds();
        if (left <= 0) {
            throw new ConsumerTimeoutException();
        }
        try {
            fence.awaitChange(Math.min(left, FENCE_WAIT_SLICE_NANOS));
        } catch (InterruptedException e) {
            throw sneaky(e);
        }
    }

    private Chunk take(long deadline) {
        try {
            Chunk chunk;
            if (deadline == Long.MAX_VALUE) {
                chunk = queue.take();
            } else {
                chunk = queue.poll(Math.max(0, deadline - time.nanoseconds()), TimeUnit.NANOSECONDS);
                if (chunk == null) {
                    throw new ConsumerTimeoutException();
                }
            }
            if (chunk == Chunk.SHUTDOWN) {
                queue.add(Chunk.SHUTDOWN); // stays the last element for anyone reading after us
            } else {
                queuedBytes.addAndGet(-chunk.bytes());
                onTake.run();
            }
            return chunk;
        } catch (InterruptedException e) {
            // 0.8.2.2 lets the InterruptedException out of hasNext() (Scala has no checked exceptions): so do we
            throw sneaky(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> RuntimeException sneaky(Throwable e) throws E {
        throw (E) e;
    }
}
