package io.zkgroups.it.contract;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.WakeupException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Kafka's {@link Consumer} contract, one case at a time, run against a real {@code KafkaConsumer} in Kafka's own group
 * ({@link KafkaConsumerContractIT}) and against {@code ZkGroupConsumer} in a ZooKeeper group
 * ({@link ZkGroupConsumerContractIT}) on the same broker: both must pass every case. Each case configures the
 * consumer with Kafka's keys only, as code written against {@code KafkaConsumer} does. The differences that remain are
 * listed in docs/compatibility.md (KafkaConsumer compared), with their reasons.
 */
@Timeout(120)
abstract class ConsumerContract {

    static final Duration WAIT = Duration.ofSeconds(60);
    private static final AtomicInteger GROUPS = new AtomicInteger();

    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension();

    private final List<Consumer<String, String>> opened = new ArrayList<>();

    /** A consumer of {@code group} from the earliest offset with String deserializers, plus {@code settings}. */
    abstract Consumer<String, String> create(String group, Map<String, Object> settings);

    @AfterEach
    void closeConsumers() {
        for (Consumer<String, String> consumer : opened) {
            try {
                consumer.close(Duration.ofSeconds(10));
            } catch (RuntimeException e) {
                // closed by the test already, or failed: the test says why
            }
        }
    }

    Consumer<String, String> consumer(String group, Map<String, Object> settings) {
        Consumer<String, String> consumer = create(group, settings);
        opened.add(consumer);
        return consumer;
    }

    Consumer<String, String> consumer(String group) {
        return consumer(group, Map.of());
    }

    /** A fresh group and topic with {@code partitions} partitions of {@code perPartition} records each. */
    static String topicWithRecords(String prefix, int partitions, int perPartition) {
        String topic = prefix + "-" + GROUPS.incrementAndGet();
        servers.broker().createTopic(topic, partitions);
        List<EmbeddedKafka.Record> records = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            for (int i = 0; i < perPartition; i++) {
                records.add(EmbeddedKafka.Record.to(p, "k" + i, "v" + i));
            }
        }
        if (!records.isEmpty()) {
            servers.broker().produce(topic, records.toArray(EmbeddedKafka.Record[]::new));
        }
        return topic;
    }

    static Set<TopicPartition> partitions(String topic, int count) {
        return IntStream.range(0, count).mapToObj(p -> new TopicPartition(topic, p)).collect(Collectors.toSet());
    }

    /** Polls until {@code consumer} is assigned {@code expected}; returns the records it got meanwhile. */
    static List<ConsumerRecord<String, String>> pollUntilAssigned(Consumer<String, String> consumer,
                                                                  Set<TopicPartition> expected) {
        List<ConsumerRecord<String, String>> got = new ArrayList<>();
        await("assignment " + expected).atMost(WAIT).pollInterval(Duration.ZERO).until(() -> {
            consumer.poll(Duration.ofMillis(100)).forEach(got::add);
            return consumer.assignment().equals(expected);
        });
        return got;
    }

    /** Polls until {@code count} records arrived in all; returns them. */
    static List<ConsumerRecord<String, String>> pollRecords(Consumer<String, String> consumer, int count,
                                                            List<ConsumerRecord<String, String>> already) {
        List<ConsumerRecord<String, String>> got = new ArrayList<>(already);
        await(count + " records").atMost(WAIT).pollInterval(Duration.ZERO).until(() -> {
            consumer.poll(Duration.ofMillis(100)).forEach(got::add);
            return got.size() >= count;
        });
        return got;
    }

    // --- misuse ---------------------------------------------------------------------------------------------

    @Test
    void everyMethodThrowsIllegalStateExceptionAfterClose() {
        String topic = topicWithRecords("closed", 1, 0);
        TopicPartition tp = new TopicPartition(topic, 0);
        Consumer<String, String> consumer = consumer("closed-" + topic);
        consumer.subscribe(List.of(topic));
        consumer.close();

        Map<String, Runnable> calls = new LinkedHashMap<>();
        calls.put("subscribe", () -> consumer.subscribe(List.of(topic)));
        calls.put("subscribe(Pattern)", () -> consumer.subscribe(Pattern.compile(topic)));
        calls.put("unsubscribe", consumer::unsubscribe);
        calls.put("subscription", consumer::subscription);
        calls.put("assignment", consumer::assignment);
        calls.put("assign", () -> consumer.assign(List.of(tp)));
        calls.put("poll", () -> consumer.poll(Duration.ZERO));
        calls.put("commitSync", () -> consumer.commitSync());
        calls.put("commitSync(offsets)", () -> consumer.commitSync(Map.of(tp, new OffsetAndMetadata(1))));
        calls.put("commitAsync", () -> consumer.commitAsync());
        calls.put("committed", () -> consumer.committed(Set.of(tp)));
        calls.put("seek", () -> consumer.seek(tp, 0));
        calls.put("seekToBeginning", () -> consumer.seekToBeginning(List.of(tp)));
        calls.put("seekToEnd", () -> consumer.seekToEnd(List.of(tp)));
        calls.put("position", () -> consumer.position(tp));
        calls.put("pause", () -> consumer.pause(List.of(tp)));
        calls.put("resume", () -> consumer.resume(List.of(tp)));
        calls.put("paused", consumer::paused);
        calls.put("partitionsFor", () -> consumer.partitionsFor(topic));
        calls.put("listTopics", consumer::listTopics);
        calls.put("beginningOffsets", () -> consumer.beginningOffsets(List.of(tp)));
        calls.put("endOffsets", () -> consumer.endOffsets(List.of(tp)));
        calls.put("offsetsForTimes", () -> consumer.offsetsForTimes(Map.of(tp, 0L)));
        calls.put("currentLag", () -> consumer.currentLag(tp));
        calls.put("groupMetadata", consumer::groupMetadata);
        calls.put("enforceRebalance", () -> consumer.enforceRebalance());
        calls.forEach((name, call) -> assertThatThrownBy(call::run).as(name)
                .isInstanceOf(IllegalStateException.class).hasMessage("This consumer has already been closed."));
        assertThatCode(consumer::close).as("a second close").doesNotThrowAnyException();
        assertThatCode(consumer::wakeup).as("wakeup after close").doesNotThrowAnyException();
    }

    @Test
    void pollWithoutASubscriptionThrowsIllegalStateException() {
        Consumer<String, String> consumer = consumer("unsubscribed-" + GROUPS.incrementAndGet());
        assertThatThrownBy(() -> consumer.poll(Duration.ZERO)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void seekPositionAndPauseOfAPartitionNotAssignedThrowIllegalStateException() {
        String topic = topicWithRecords("unassigned", 1, 1);
        String other = topicWithRecords("other", 1, 0);
        Consumer<String, String> consumer = consumer("unassigned-" + topic);
        consumer.subscribe(List.of(topic));
        pollUntilAssigned(consumer, partitions(topic, 1));
        TopicPartition notMine = new TopicPartition(other, 0);

        assertThatThrownBy(() -> consumer.seek(notMine, 0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> consumer.position(notMine)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> consumer.pause(List.of(notMine))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> consumer.seekToBeginning(List.of(notMine))).isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest
    @CsvSource({
            "enable.auto.commit, maybe",
            "auto.offset.reset, sometimes",
            "max.partition.fetch.bytes, -5",
            "session.timeout.ms, soon",
            "fetch.max.wait.ms, -1",
            "max.poll.records, 0"})
    void aBadValueOfAKafkaKeyFailsWithKafkasConfigException(String key, String value) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(key, value);
        assertThatThrownBy(() -> consumer("bad-" + GROUPS.incrementAndGet(), settings))
                .isInstanceOf(ConfigException.class).isInstanceOf(KafkaException.class)
                .hasMessageContaining(key).hasMessageContaining(value);
    }

    @Test
    void aWakeupInterruptsTheNextBlockingCallOnceEach() {
        String topic = topicWithRecords("wakeup", 1, 3);
        TopicPartition tp = new TopicPartition(topic, 0);
        Consumer<String, String> consumer = consumer("wakeup-" + topic, Map.of("enable.auto.commit", "false"));
        consumer.subscribe(List.of(topic));
        pollUntilAssigned(consumer, Set.of(tp));

        consumer.wakeup();
        assertThatThrownBy(() -> consumer.poll(Duration.ofSeconds(5))).as("poll").isInstanceOf(WakeupException.class);
        assertThatCode(() -> consumer.poll(Duration.ofMillis(100))).as("the poll after it").doesNotThrowAnyException();

        consumer.wakeup();
        assertThatThrownBy(() -> consumer.commitSync(Map.of(tp, new OffsetAndMetadata(1))))
                .as("commitSync").isInstanceOf(WakeupException.class);
        assertThatCode(() -> consumer.commitSync(Map.of(tp, new OffsetAndMetadata(1)))).as("the commitSync after it")
                .doesNotThrowAnyException();

        consumer.wakeup();
        assertThatThrownBy(() -> consumer.committed(Set.of(tp))).as("committed").isInstanceOf(WakeupException.class);
        assertThat(consumer.committed(Set.of(tp))).as("the committed after it").containsEntry(tp, new OffsetAndMetadata(1));
        assertThatCode(() -> consumer.poll(Duration.ofMillis(100))).as("a poll after all that").doesNotThrowAnyException();
    }

    // --- commits --------------------------------------------------------------------------------------------

    @Test
    void withoutAutoCommitNothingIsCommittedThatTheApplicationDidNotCommit() {
        String topic = topicWithRecords("manual", 2, 10);
        String group = "manual-" + topic;
        Map<String, Object> manual = Map.of("enable.auto.commit", "false", "auto.commit.interval.ms", "100");
        Consumer<String, String> consumer = consumer(group, manual);
        consumer.subscribe(List.of(topic));
        List<ConsumerRecord<String, String>> got = pollRecords(consumer, 20, pollUntilAssigned(consumer, partitions(topic, 2)));
        assertThat(got).hasSize(20);
        // polls over several auto-commit intervals, then a graceful close: neither may commit
        long until = System.nanoTime() + Duration.ofMillis(500).toNanos();
        while (System.nanoTime() < until) {
            consumer.poll(Duration.ofMillis(100));
        }
        consumer.close();

        Consumer<String, String> reader = consumer(group, manual);
        Map<TopicPartition, OffsetAndMetadata> committed = reader.committed(partitions(topic, 2));
        assertThat(committed.values()).as("committed offsets of the group").containsOnlyNulls();
        reader.subscribe(List.of(topic));
        assertThat(pollRecords(reader, 20, pollUntilAssigned(reader, partitions(topic, 2))))
                .as("a new member starts from the beginning again").hasSize(20);
    }

    @Test
    void commitSyncOfGivenOffsetsIsWhatCommittedReturnsAndWhereTheNextMemberStarts() {
        String topic = topicWithRecords("given", 2, 10);
        String group = "given-" + topic;
        TopicPartition tp0 = new TopicPartition(topic, 0);
        TopicPartition tp1 = new TopicPartition(topic, 1);
        Map<String, Object> manual = Map.of("enable.auto.commit", "false");
        Consumer<String, String> consumer = consumer(group, manual);
        consumer.subscribe(List.of(topic));
        pollUntilAssigned(consumer, Set.of(tp0, tp1));

        consumer.commitSync(Map.of(tp0, new OffsetAndMetadata(5), tp1, new OffsetAndMetadata(7)));

        assertThat(consumer.committed(Set.of(tp0, tp1)))
                .containsEntry(tp0, new OffsetAndMetadata(5)).containsEntry(tp1, new OffsetAndMetadata(7));
        consumer.close();
        Consumer<String, String> next = consumer(group, manual);
        next.subscribe(List.of(topic));
        List<ConsumerRecord<String, String>> got = pollRecords(next, 8, pollUntilAssigned(next, Set.of(tp0, tp1)));
        assertThat(got.stream().filter(r -> r.partition() == 0).mapToLong(ConsumerRecord::offset).min()).hasValue(5);
        assertThat(got.stream().filter(r -> r.partition() == 1).mapToLong(ConsumerRecord::offset).min()).hasValue(7);
    }

    @Test
    void commitAsyncCallsBackOnTheConsumersThreadInTheOrderMadeAndCloseLetsItLand() {
        String topic = topicWithRecords("async", 1, 10);
        String group = "async-" + topic;
        TopicPartition tp = new TopicPartition(topic, 0);
        Consumer<String, String> consumer = consumer(group, Map.of("enable.auto.commit", "false"));
        consumer.subscribe(List.of(topic));
        pollUntilAssigned(consumer, Set.of(tp));
        List<Long> calledBack = new ArrayList<>();
        List<Exception> errors = new ArrayList<>();
        Set<Thread> threads = new java.util.HashSet<>();
        for (long offset : new long[] {3, 6}) {
            consumer.commitAsync(Map.of(tp, new OffsetAndMetadata(offset)), (offsets, error) -> {
                calledBack.add(offsets.get(tp).offset());
                threads.add(Thread.currentThread());
                if (error != null) {
                    errors.add(error);
                }
            });
        }
        await("both callbacks, from later calls").atMost(WAIT).pollInSameThread().pollInterval(Duration.ZERO).until(() -> {
            consumer.poll(Duration.ofMillis(50));
            return calledBack.size() == 2;
        });
        assertThat(errors).isEmpty();
        assertThat(calledBack).as("in the order the commits were made").containsExactly(3L, 6L);
        assertThat(threads).as("on the thread that calls the consumer").containsExactly(Thread.currentThread());
        assertThat(consumer.committed(Set.of(tp))).containsEntry(tp, new OffsetAndMetadata(6));

        consumer.commitAsync(Map.of(tp, new OffsetAndMetadata(8)), null);
        consumer.close();
        Consumer<String, String> reader = consumer(group, Map.of("enable.auto.commit", "false"));
        assertThat(reader.committed(Set.of(tp))).as("close lets the commit in flight land")
                .containsEntry(tp, new OffsetAndMetadata(8));
    }

    // --- rebalance ------------------------------------------------------------------------------------------

    @Test
    void aJoinRevokesFromTheFirstMemberWhatTheSecondIsThenAssignedAndALeaveGivesItBack() {
        String topic = topicWithRecords("listeners", 4, 0);
        String group = "listeners-" + topic;
        Set<Integer> all = Set.of(0, 1, 2, 3);
        AtomicLong clock = new AtomicLong();
        RecordingListener firstCalls = new RecordingListener(clock);
        RecordingListener secondCalls = new RecordingListener(clock);
        Consumer<String, String> first = consumer(group);
        first.subscribe(List.of(topic), firstCalls);
        pollUntilAssigned(first, partitions(topic, 4));
        Consumer<String, String> second = consumer(group);
        second.subscribe(List.of(topic), secondCalls);

        await("two members with two partitions each").atMost(WAIT).pollInterval(Duration.ZERO).until(() -> {
            first.poll(Duration.ofMillis(50));
            second.poll(Duration.ofMillis(50));
            return first.assignment().size() == 2 && second.assignment().size() == 2;
        });

        Set<Integer> moved = numbers(second.assignment());
        List<RecordingListener.Call> firstSoFar = firstCalls.calls();
        assertThat(firstSoFar).extracting(RecordingListener.Call::kind)
                .containsExactly(RecordingListener.Kind.ASSIGNED, RecordingListener.Kind.REVOKED);
        assertThat(firstSoFar.get(0).partitions()).isEqualTo(all);
        assertThat(firstSoFar.get(1).partitions()).as("revoked: what moves").isEqualTo(moved);
        List<RecordingListener.Call> secondSoFar = secondCalls.calls();
        assertThat(secondSoFar).extracting(RecordingListener.Call::kind).containsExactly(RecordingListener.Kind.ASSIGNED);
        assertThat(secondSoFar.get(0).partitions()).isEqualTo(moved);
        assertThat(secondSoFar.get(0).sequence()).as("assigned to the second after revoked from the first")
                .isGreaterThan(firstSoFar.get(1).sequence());

        second.close();
        await("the first member owns everything again").atMost(WAIT).pollInterval(Duration.ZERO).until(() -> {
            first.poll(Duration.ofMillis(50));
            return first.assignment().size() == 4;
        });
        List<RecordingListener.Call> secondAll = secondCalls.calls();
        assertThat(secondAll).extracting(RecordingListener.Call::kind)
                .containsExactly(RecordingListener.Kind.ASSIGNED, RecordingListener.Kind.REVOKED);
        assertThat(secondAll.get(1).partitions()).as("close revokes what it owned").isEqualTo(moved);
        List<RecordingListener.Call> firstAll = firstCalls.calls();
        assertThat(firstAll).extracting(RecordingListener.Call::kind).containsExactly(RecordingListener.Kind.ASSIGNED,
                RecordingListener.Kind.REVOKED, RecordingListener.Kind.ASSIGNED);
        assertThat(firstAll.get(2).partitions()).isEqualTo(moved);
        assertThat(firstAll.get(2).sequence()).isGreaterThan(secondAll.get(1).sequence());
    }

    private static Set<Integer> numbers(Collection<TopicPartition> partitions) {
        return partitions.stream().map(TopicPartition::partition).collect(Collectors.toCollection(TreeSet::new));
    }

    // --- positions ------------------------------------------------------------------------------------------

    @Test
    void pausedPartitionsHandOutNothingUntilResumed() {
        String topic = topicWithRecords("paused", 2, 10);
        Set<TopicPartition> both = partitions(topic, 2);
        Consumer<String, String> consumer = consumer("paused-" + topic, Map.of("enable.auto.commit", "false"));
        consumer.subscribe(List.of(topic));
        pollUntilAssigned(consumer, both);
        consumer.seekToBeginning(both);
        consumer.pause(both);

        assertThat(consumer.paused()).isEqualTo(both);
        for (int i = 0; i < 3; i++) {
            assertThat(consumer.poll(Duration.ofMillis(100))).as("a poll while paused").isEmpty();
        }
        consumer.resume(both);
        assertThat(consumer.paused()).isEmpty();
        assertThat(pollRecords(consumer, 20, List.of())).hasSize(20);
    }

    @Test
    void positionsFollowSeeks() {
        String topic = topicWithRecords("seeks", 2, 10);
        TopicPartition tp0 = new TopicPartition(topic, 0);
        TopicPartition tp1 = new TopicPartition(topic, 1);
        Consumer<String, String> consumer = consumer("seeks-" + topic, Map.of("enable.auto.commit", "false"));
        consumer.subscribe(List.of(topic));
        pollUntilAssigned(consumer, Set.of(tp0, tp1));

        consumer.seek(tp0, 7);
        consumer.seekToEnd(List.of(tp1));
        assertThat(consumer.position(tp0)).isEqualTo(7);
        assertThat(consumer.position(tp1)).isEqualTo(10);
        List<ConsumerRecord<String, String>> got = pollRecords(consumer, 3, List.of());
        assertThat(got).extracting(ConsumerRecord::offset).containsExactly(7L, 8L, 9L);
        assertThat(got).allSatisfy(r -> assertThat(r.partition()).isZero());
        assertThat(consumer.position(tp0)).isEqualTo(10);
        consumer.seekToBeginning(List.of(tp0));
        assertThat(consumer.position(tp0)).isZero();
    }
}
