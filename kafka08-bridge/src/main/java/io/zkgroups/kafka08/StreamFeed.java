package io.zkgroups.kafka08;

import io.zkgroups.rebalancer.consumer.HandOutFence;
import io.zkgroups.registry.Immutable;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fetcher thread's side of the streams: puts each partition's fetched records on the stream of the consumer thread
 * the group gave it to, as a {@link Chunk} tagged with the partition's current tenure and grant epoch.
 * <p>
 * A full stream does not block the fetcher thread (it must keep polling, or a rebalance would wait on the
 * application): the chunk waits here and its partition is paused, so at most one chunk per partition waits; once the
 * stream has room again the chunk goes in and the partition is resumed. Used by the fetcher thread only, apart from
 * {@link #waitingForRoom()}.
 */
final class StreamFeed {

    private static final Logger LOG = LoggerFactory.getLogger(StreamFeed.class);

    private final Consumer<ByteBuffer, ByteBuffer> consumer;
    private final HandOutLedger ledger;
    private final HandOutFence fence;
    private final boolean handOut;
    private final String name;
    private final List<StreamChannel> channels = new ArrayList<>();
    private final Map<TopicPartition, StreamChannel> channelOf = new HashMap<>();
    private final Map<StreamChannel, ArrayDeque<Chunk>> waiting = new HashMap<>();
    private final Set<TopicPartition> pausedForRoom = new HashSet<>();
    private volatile boolean waitingForRoom;

    /**
     * @param consumer the consumer whose partitions are paused and resumed
     * @param handOut  false: records are not queued at all and their partitions stay paused (0.8.2.2's testing
     *                 connector without a fetcher)
     */
    StreamFeed(Consumer<ByteBuffer, ByteBuffer> consumer, HandOutLedger ledger, HandOutFence fence, boolean handOut,
               String name) {
        this.consumer = consumer;
        this.ledger = ledger;
        this.fence = fence;
        this.handOut = handOut;
        this.name = name;
    }

    void add(StreamChannel channel) {
        channels.add(channel);
    }

    /** {@code partition}'s records go to {@code channel} from now on (it was just assigned in the ledger). */
    void assign(TopicPartition partition, StreamChannel channel) {
        channelOf.put(partition, channel);
    }

    /** Whether some chunk waits for room: a stream taking a chunk should wake the fetcher. */
    boolean waitingForRoom() {
        return waitingForRoom;
    }

    /** Queues what one poll returned. */
    void route(ConsumerRecords<ByteBuffer, ByteBuffer> records) {
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<ByteBuffer, ByteBuffer>> list = records.records(tp);
            StreamChannel channel = channelOf.get(tp);
            long tenure = ledger.tenure(tp);
            long epoch = fence.epochOf(tp);
            if (channel == null || tenure == 0 || epoch == 0) {
                // every partition the consumer fetches was announced through onPartitionsAssigned: never here
                LOG.error("[{}] records of {} which this connector was not told it owns; fetching them again", name, tp);
                consumer.seek(tp, list.get(0).offset());
                continue;
            }
            if (!handOut) {
                consumer.pause(Collections.singletonList(tp));
                continue;
            }
            Chunk chunk = new Chunk(tp, tenure, epoch, list);
            ArrayDeque<Chunk> queue = waiting.get(channel);
            if ((queue == null || queue.isEmpty()) && channel.offer(chunk)) {
                continue;
            }
            waiting.computeIfAbsent(channel, c -> new ArrayDeque<>()).add(chunk);
            consumer.pause(Collections.singletonList(tp));
            pausedForRoom.add(tp);
            waitingForRoom = true;
        }
    }

    /**
     * Moves waiting chunks into streams that have room again, and resumes the partition of each chunk moved: its next
     * fetch comes while the stream works through what it holds.
     */
    void flush() {
        if (waiting.isEmpty()) {
            return;
        }
        List<TopicPartition> resume = new ArrayList<>();
        for (Iterator<Map.Entry<StreamChannel, ArrayDeque<Chunk>>> it = waiting.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<StreamChannel, ArrayDeque<Chunk>> entry = it.next();
            StreamChannel channel = entry.getKey();
            ArrayDeque<Chunk> queue = entry.getValue();
            while (!queue.isEmpty() && channel.offer(queue.peekFirst())) {
                TopicPartition moved = queue.pollFirst().partition();
                if (pausedForRoom.remove(moved)) {
                    resume.add(moved); // at most one chunk of a partition waits: it had the last
                }
            }
            if (queue.isEmpty()) {
                it.remove();
            }
        }
        if (!resume.isEmpty()) {
            consumer.resume(resume);
        }
        waitingForRoom = !waiting.isEmpty();
    }

    /**
     * Forgets everything queued or waiting of {@code partitions} (the ledger already stops their hand-outs); returns the
     * number of chunks dropped.
     */
    int drop(Collection<TopicPartition> partitions) {
        Set<TopicPartition> gone = Immutable.set(partitions);
        int dropped = 0;
        for (StreamChannel channel : channels) {
            dropped += channel.purge(chunk -> gone.contains(chunk.partition()));
        }
        for (ArrayDeque<Chunk> queue : waiting.values()) {
            int before = queue.size();
            queue.removeIf(chunk -> gone.contains(chunk.partition()));
            dropped += before - queue.size();
        }
        pausedForRoom.removeAll(gone);
        channelOf.keySet().removeAll(gone);
        return dropped;
    }

    /** Ends every stream; with a {@code failure} (else null) their readers are told of it: see StreamChannel. */
    void shutdown(Throwable failure) {
        channels.forEach(channel -> channel.shutdown(failure));
    }
}
