package io.zkgroups.kafka08;

import io.zkgroups.registry.Time;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The feed's queueing and back-pressure, over kafka-clients' MockConsumer (only its pause state is used). */
class StreamFeedTest {

    private static final TopicPartition P0 = new TopicPartition("t", 0);
    private static final TopicPartition P1 = new TopicPartition("t", 1);

    private final MockConsumer<ByteBuffer, ByteBuffer> consumer = new MockConsumer<>(OffsetResetStrategy.EARLIEST);
    private final HandOutLedger ledger = new HandOutLedger();
    private final StreamChannel stream = new StreamChannel(1, ledger, new TestFence(), -1, () -> { }, Time.SYSTEM);
    private final StreamFeed feed = new StreamFeed(consumer, ledger, new TestFence(), true, "test");

    StreamFeedTest() {
        consumer.assign(List.of(P0, P1));
        feed.add(stream);
        for (TopicPartition tp : List.of(P0, P1)) {
            ledger.assign(tp);
            feed.assign(tp, stream);
        }
    }

    private static ConsumerRecords<ByteBuffer, ByteBuffer> fetched(TopicPartition tp, long from, long to) {
        return new ConsumerRecords<>(Map.of(tp, LongStream.range(from, to)
                .mapToObj(o -> new ConsumerRecord<>(tp.topic(), tp.partition(), o, (ByteBuffer) null, ByteBuffer.allocate(0))).toList()));
    }

    @Test
    void whatAFullStreamHasNoRoomForWaitsWithItsPartitionPausedAndGoesInAndIsResumedOnceThereIsRoom() {
        feed.route(fetched(P0, 0, 2));
        assertThat(feed.waitingForRoom()).isFalse();
        feed.route(fetched(P0, 2, 4));
        feed.route(fetched(P1, 0, 2));
        assertThat(feed.waitingForRoom()).isTrue();
        assertThat(consumer.paused()).containsExactlyInAnyOrder(P0, P1);

        feed.flush();
        assertThat(consumer.paused()).as("no room yet").containsExactlyInAnyOrder(P0, P1);

        assertThat(List.of(stream.next().offset(), stream.next().offset())).containsExactly(0L, 1L);
        feed.flush();
        assertThat(consumer.paused()).as("P0's chunk went in: P0 is fetched again while P1's chunk still waits")
                .containsExactly(P1);
        assertThat(List.of(stream.next().offset(), stream.next().offset())).containsExactly(2L, 3L);
        feed.flush();
        assertThat(consumer.paused()).isEmpty();
        assertThat(feed.waitingForRoom()).isFalse();
        ConsumerRecord<ByteBuffer, ByteBuffer> last = stream.next();
        assertThat(new TopicPartition(last.topic(), last.partition())).isEqualTo(P1);
    }

    @Test
    void droppingARevokedPartitionForgetsItsWaitingAndQueuedChunks() {
        feed.route(fetched(P0, 0, 2)); // queued
        feed.route(fetched(P1, 0, 2)); // waits, P1 paused

        ledger.revoke(List.of(P1));
        assertThat(feed.drop(List.of(P1))).as("the waiting chunk").isEqualTo(1);
        consumer.assign(List.of(P0)); // as ZkGroupConsumer lets go of a revoked partition after the callback
        feed.flush();
        assertThat(feed.waitingForRoom()).isFalse();

        ledger.revoke(List.of(P0));
        assertThat(feed.drop(List.of(P0))).as("the queued chunk").isEqualTo(1);
        assertThat(stream.purge(c -> true)).as("nothing left in the stream").isZero();
    }

    @Test
    void recordsOfAPartitionTheLedgerDoesNotKnowAreFetchedAgainNotQueued() {
        TopicPartition unknown = new TopicPartition("t", 2);
        consumer.assign(List.of(P0, P1, unknown));
        consumer.updateBeginningOffsets(Map.of(unknown, 0L));
        feed.route(fetched(unknown, 5, 7));
        assertThat(consumer.position(unknown)).isEqualTo(5);
        assertThat(feed.drop(List.of(P0))).isZero();
    }

    @Test
    void withoutHandOutNothingIsQueuedAndPartitionsStayPaused() {
        StreamFeed noFetcher = new StreamFeed(consumer, ledger, new TestFence(), false, "test");
        noFetcher.add(stream);
        noFetcher.assign(P0, stream);
        noFetcher.route(fetched(P0, 0, 2));
        assertThat(consumer.paused()).containsExactly(P0);
        assertThat(stream.purge(c -> true)).isZero();
    }
}
