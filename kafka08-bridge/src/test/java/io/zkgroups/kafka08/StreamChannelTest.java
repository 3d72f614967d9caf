package io.zkgroups.kafka08;

import io.zkgroups.rebalancer.group.OwnershipFence.HandOut;
import io.zkgroups.registry.Time;
import kafka.consumer.ConsumerTimeoutException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

@Timeout(30)
class StreamChannelTest {

    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    private final HandOutLedger ledger = new HandOutLedger();
    private final TestFence fence = new TestFence();
    private final AtomicInteger taken = new AtomicInteger();

    /** Room for a hundred records. */
    private StreamChannel channel(long timeoutMs) {
        return channel(timeoutMs, 100 * chunk(P0, 1, 0, 1).bytes());
    }

    private StreamChannel channel(long timeoutMs, long capacityBytes) {
        return new StreamChannel(capacityBytes, ledger, fence, timeoutMs, taken::incrementAndGet, Time.SYSTEM);
    }

    private static Chunk chunk(TopicPartition tp, long tenure, long from, long to) {
        return new Chunk(tp, tenure, TestFence.EPOCH, LongStream.range(from, to)
                .mapToObj(o -> new ConsumerRecord<>(tp.topic(), tp.partition(), o, 0L, TimestampType.CREATE_TIME, -1, 1,
                        (ByteBuffer) null, ByteBuffer.wrap(new byte[] {(byte) o}), new RecordHeaders(), Optional.<Integer>empty()))
                .toList());
    }

    @Test
    void recordsGoOutInOrderAndTheirPositionsAreRecorded() {
        StreamChannel channel = channel(-1);
        long g = ledger.assign(P0);
        assertThat(channel.offer(chunk(P0, g, 5, 8))).isTrue();
        assertThat(channel.hasNext()).isTrue();
        assertThat(channel.next().offset()).isEqualTo(5);
        assertThat(ledger.uncommitted()).isEqualTo(Map.of(P0, 6L));
        assertThat(channel.next().offset()).isEqualTo(6);
        assertThat(channel.next().offset()).isEqualTo(7);
        assertThat(ledger.uncommitted()).isEqualTo(Map.of(P0, 8L));
        assertThat(taken).hasValue(1);
    }

    @Test
    void theQueueHoldsAtMostItsCapacityInBytesAndAlwaysOneChunk() {
        StreamChannel channel = channel(-1, 2 * chunk(P0, 1, 0, 1).bytes());
        long g = ledger.assign(P0);
        assertThat(channel.offer(chunk(P0, g, 0, 1))).isTrue();
        assertThat(channel.offer(chunk(P0, g, 1, 2))).isTrue();
        assertThat(channel.offer(chunk(P0, g, 2, 3))).as("full").isFalse();
        channel.next();
        channel.next();
        assertThat(channel.offer(chunk(P0, g, 2, 12))).as("larger than the bound, into an empty queue").isTrue();
        assertThat(channel.offer(chunk(P0, g, 12, 13))).isFalse();
        assertThat(chunk(P0, g, 0, 1).bytes()).as("a 0.8 message's overhead plus its key and value")
                .isEqualTo(Chunk.MESSAGE_OVERHEAD + 1);
    }

    @Test
    void nothingOfARevokedPartitionGoesOutEvenAfterHasNextSaidThereWasARecord() {
        StreamChannel channel = channel(-1);
        long g0 = ledger.assign(P0);
        long g1 = ledger.assign(P1);
        channel.offer(chunk(P0, g0, 0, 3));
        channel.offer(chunk(P1, g1, 10, 11));
        assertThat(channel.hasNext()).isTrue(); // P0's record 0 is ready

        assertThat(ledger.revoke(List.of(P0))).as("nothing of P0 was handed out").isEmpty();

        ConsumerRecord<ByteBuffer, ByteBuffer> next = channel.next();
        assertThat(new TopicPartition(next.topic(), next.partition())).isEqualTo(P1);
        assertThat(next.offset()).isEqualTo(10);
    }

    @Test
    void chunksFetchedBeforeAPartitionLeftAndCameBackAreDropped() {
        StreamChannel channel = channel(-1);
        long before = ledger.assign(P0);
        channel.offer(chunk(P0, before, 0, 2));
        ledger.revoke(List.of(P0));
        long after = ledger.assign(P0);
        channel.offer(chunk(P0, after, 0, 2)); // the new owner tenure starts again at the committed offset
        assertThat(channel.next().offset()).isZero();
        assertThat(channel.next().offset()).isEqualTo(1);
        assertThat(ledger.uncommitted()).isEqualTo(Map.of(P0, 2L));
        assertThat(taken).as("the stale chunk was taken and dropped").hasValue(2);
    }

    @Test
    void consumerTimeoutMsEndsTheWaitWithAConsumerTimeoutExceptionAndTheIteratorGoesOn() {
        StreamChannel channel = channel(50);
        assertThatThrownBy(channel::hasNext).isInstanceOf(ConsumerTimeoutException.class);
        assertThatThrownBy(channel::next).isInstanceOf(ConsumerTimeoutException.class);
        long g = ledger.assign(P0);
        channel.offer(chunk(P0, g, 0, 1));
        assertThat(channel.hasNext()).isTrue();
        assertThat(channel.next().offset()).isZero();
    }

    @Test
    void aStaleChunkDoesNotRestartTheTimeout() {
        StreamChannel channel = channel(200);
        long g = ledger.assign(P0);
        channel.offer(chunk(P0, g, 0, 1));
        ledger.revoke(List.of(P0));
        long start = System.nanoTime();
        assertThatThrownBy(channel::hasNext).isInstanceOf(ConsumerTimeoutException.class);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(190);
    }

    @Test
    void aWaitingReaderWakesWhenAChunkArrives() throws Exception {
        StreamChannel channel = channel(-1);
        long g = ledger.assign(P0);
        CompletableFuture<Long> read = CompletableFuture.supplyAsync(() -> channel.next().offset());
        channel.offer(chunk(P0, g, 3, 4));
        assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo(3);
    }

    @Test
    void afterShutdownTheStreamEndsForGood() throws Exception {
        StreamChannel channel = channel(-1);
        long g = ledger.assign(P0);
        channel.offer(chunk(P0, g, 0, 1));
        channel.offer(chunk(P0, g, 1, 2));
        CompletableFuture<Boolean> waiting = new CompletableFuture<>();
        StreamChannel idle = channel(-1);
        Thread reader = new Thread(() -> waiting.complete(idle.hasNext()));
        reader.start();

        channel.shutdown();
        idle.shutdown();

        assertThat(channel.hasNext()).as("queued chunks are dropped at shutdown").isFalse();
        assertThat(channel.hasNext()).isFalse();
        assertThatThrownBy(channel::next).isInstanceOf(NoSuchElementException.class);
        assertThat(waiting.get(10, TimeUnit.SECONDS)).as("a reader blocked in hasNext").isFalse();
        assertThat(ledger.uncommitted()).isEmpty();
    }

    @Test
    void afterTheFetcherFailedEveryReaderIsToldWhy() throws Exception {
        StreamChannel channel = channel(-1);
        long g = ledger.assign(P0);
        channel.offer(chunk(P0, g, 0, 1));
        StreamChannel idle = channel(-1);
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(idle::hasNext);
        OutOfMemoryError failure = new OutOfMemoryError("Java heap space");

        channel.shutdown(failure);
        idle.shutdown(failure);

        assertThatThrownBy(channel::hasNext).as("not an end the application could take for its own shutdown")
                .isInstanceOf(kafka.common.KafkaException.class).hasCause(failure).hasMessageContaining("Java heap space");
        assertThatThrownBy(channel::hasNext).as("and on every later call").isInstanceOf(kafka.common.KafkaException.class);
        assertThatThrownBy(channel::next).isInstanceOf(kafka.common.KafkaException.class);
        assertThatThrownBy(() -> waiting.get(10, TimeUnit.SECONDS)).as("a reader blocked in hasNext")
                .hasCauseInstanceOf(kafka.common.KafkaException.class);
        assertThat(ledger.uncommitted()).as("nothing of the dropped chunk was handed out").isEmpty();
    }

    @Test
    void purgingDropsOnlyTheChunksOfTheGivenPartitions() {
        StreamChannel channel = channel(-1);
        long g0 = ledger.assign(P0);
        long g1 = ledger.assign(P1);
        channel.offer(chunk(P0, g0, 0, 1));
        channel.offer(chunk(P1, g1, 0, 1));
        channel.purge(c -> c.partition().equals(P0));
        assertThat(channel.next().partition()).isEqualTo(1);
        assertThat(channel.offer(chunk(P1, g1, 1, 2))).isTrue();
        assertThat(channel.offer(chunk(P1, g1, 2, 3))).as("room for two again").isTrue();
        assertThat(List.of(channel.next().offset(), channel.next().offset())).containsExactly(1L, 2L);
    }

    // --- the group's fence ------------------------------------------------------------------------------------

    @Test
    void aGrantThatEndedDropsItsQueuedRecordsBeforeTheFetcherHearsOfIt() {
        StreamChannel channel = channel(-1);
        long g0 = ledger.assign(P0);
        long g1 = ledger.assign(P1);
        channel.offer(chunk(P0, g0, 0, 3));
        channel.offer(chunk(P1, g1, 10, 11));
        assertThat(channel.next().offset()).isZero();

        fence.set(P0, HandOut.NEVER); // the session ended; the ledger still says P0 is owned

        assertThat(channel.next().offset()).as("P0's records 1 and 2 are dropped").isEqualTo(10);
        assertThat(ledger.uncommitted()).isEqualTo(Map.of(P0, 1L, P1, 11L));
    }

    @Test
    void whileTheLeaseDoesNotHoldTheReaderWaitsAndLosesNothing() throws Exception {
        StreamChannel channel = channel(-1);
        long g = ledger.assign(P0);
        channel.offer(chunk(P0, g, 0, 2));
        assertThat(channel.next().offset()).isZero();
        fence.set(P0, HandOut.WAIT);

        CompletableFuture<Long> read = CompletableFuture.supplyAsync(() -> channel.next().offset());
        await().until(() -> fence.waits() > 0);
        assertThat(read).as("nothing goes out while the lease does not hold").isNotDone();
        assertThat(ledger.uncommitted()).isEqualTo(Map.of(P0, 1L));

        fence.set(P0, HandOut.ALLOWED); // renewed under the same grant
        assertThat(read.get(10, TimeUnit.SECONDS)).as("the record waited for, not dropped").isEqualTo(1);
    }

    @Test
    void aWaitForTheLeaseEndsWithConsumerTimeoutMsAndTheRecordStaysQueued() {
        StreamChannel channel = channel(100);
        long g = ledger.assign(P0);
        channel.offer(chunk(P0, g, 0, 1));
        fence.set(P0, HandOut.WAIT);

        assertThatThrownBy(channel::hasNext).isInstanceOf(ConsumerTimeoutException.class);

        fence.set(P0, HandOut.ALLOWED);
        assertThat(channel.next().offset()).isZero();
    }

    @Test
    void aWaitForTheLeaseThatEndsWithTheGrantDropsTheChunk() throws Exception {
        StreamChannel channel = channel(-1);
        long g = ledger.assign(P0);
        channel.offer(chunk(P0, g, 0, 2));
        fence.set(P0, HandOut.WAIT);
        CompletableFuture<Boolean> read = CompletableFuture.supplyAsync(channel::hasNext);
        await().until(() -> fence.waits() > 0);

        fence.set(P0, HandOut.NEVER);
        channel.shutdown();

        assertThat(read.get(10, TimeUnit.SECONDS)).as("the stream ends: nothing of P0 went out").isFalse();
        assertThat(ledger.uncommitted()).isEmpty();
    }

    @Test
    void aShutdownEndsAWaitForTheLease() throws Exception {
        StreamChannel channel = channel(-1);
        long g = ledger.assign(P0);
        channel.offer(chunk(P0, g, 0, 1));
        fence.set(P0, HandOut.WAIT);
        CompletableFuture<Boolean> read = CompletableFuture.supplyAsync(channel::hasNext);
        await().until(() -> fence.waits() > 0);

        channel.shutdown();

        assertThat(read.get(10, TimeUnit.SECONDS)).isFalse();
    }
}
