package io.zkgroups.it.consumer;

import io.zkgroups.it.consumer.ZkGroupConsumerIT.OffsetMonotonicity;
import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.SteadyProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three ZkGroupConsumers share a topic on a real broker (ZooKeeper mode) while records keep arriving and members
 * join, leave and are killed: two members run in child JVMs ({@link ConsumerProcessMain}), one of them is SIGKILLed
 * mid-stream, so its ZooKeeper session really expires on the server ({@code zookeeper.session.timeout.ms=2000}) and
 * its partitions are taken over only then, from its last committed offsets ({@code auto.commit.interval.ms=100}).
 * <p>
 * Members sort by consumer id in the order they join ({@code a-killed < b-child < c-thread < d-late}), so range
 * never hands a partition back to a member that had it before: each partition's history is a chain of distinct
 * members, and any A, B, A pattern in the delivery log is two members delivering it at the same time.
 */
@Timeout(180)
class KilledConsumerIT {

    private static final int PARTITIONS = 6;
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The killed member's session: its partitions are taken over this long after the kill. */
    private static final int KILLED_SESSION_MS = 2000;
    /**
     * Everybody else's: a spurious expiry of a starved member on a loaded machine would be a move this test
     * does not expect (and 0.8's default anyway).
     */
    private static final int SAFE_SESSION_MS = 6000;
    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension();

    @Test
    void aKilledMemberCausesDuplicatesOnlySinceItsLastCommitAndNothingIsLostOrDeliveredTwiceAtOnce() throws Exception {
        String group = "killed";
        String topic = group + "-t";
        servers.broker().createTopic(topic, PARTITIONS);
        DeliveryLog log = new DeliveryLog();
        ZkRegistry registry = ZkRegistry.of(servers.client());
        List<ChildConsumer> children = new ArrayList<>();
        List<ConsumerWorker> workers = new ArrayList<>();
        long[] produced;
        Map<Integer, Long> committedAtKill = new TreeMap<>();
        int killedDelivered;
        long started = System.nanoTime();
        try (OffsetMonotonicity monotonic = new OffsetMonotonicity(registry, group, topic, PARTITIONS);
             SteadyProducer producer = SteadyProducer.start(servers.broker().bootstrapServers(), topic, PARTITIONS, 5, Duration.ofMillis(50))) {

            ChildConsumer killed = child("a-killed", KILLED_SESSION_MS, group, topic, log, children);
            killed.awaitLine(0, l -> l.startsWith("ASSIGNED ") && l.split(",").length == PARTITIONS, WAIT,
                    "all partitions assigned to the only member");
            killed.awaitDelivered(1, WAIT);

            ChildConsumer leaving = child("b-child", SAFE_SESSION_MS, group, topic, log, children);
            awaitOwnersDelivering(log, group, topic, "a-killed", "a-killed", "a-killed", "b-child", "b-child", "b-child");

            ConsumerWorker thread = new ConsumerWorker("c-thread",
                    servers.consumerProperties(group, "c-thread", SAFE_SESSION_MS), List.of(topic), log);
            workers.add(thread);
            awaitOwnersDelivering(log, group, topic, "a-killed", "a-killed", "b-child", "b-child", "c-thread", "c-thread");

            // mid-stream: the member is delivering its partitions 0 and 1 right now
            killed.awaitDelivered(killed.delivered() + 100, WAIT);
            killed.kill();
            killedDelivered = killed.delivered();
            // Its session lives on for KILLED_SESSION_MS: nobody can have claimed or committed its partitions yet.
            assertThat(owners(group, topic)).as("owners right after the kill").containsEntry(0, "a-killed").containsEntry(1, "a-killed");
            registry.offsets().read(group, List.of(TopicAndPartition.of(topic, 0), TopicAndPartition.of(topic, 1)))
                    .offsets().forEach((tp, offset) -> committedAtKill.put(tp.partition(), offset));
            assertThat(committedAtKill).as("the killed member had committed both partitions").containsKeys(0, 1);
            long killedAt = System.nanoTime();

            awaitOwners(group, topic, "b-child", "b-child", "b-child", "c-thread", "c-thread", "c-thread");
            long takeoverMillis = (System.nanoTime() - killedAt) / 1_000_000;
            // b-child resumes the killed member's partitions before anything moves again: the move asserted
            // below is only in the delivery log once b-child delivered from them
            awaitOwnersDelivering(log, group, topic, "b-child", "b-child", "b-child", "c-thread", "c-thread", "c-thread");

            ConsumerWorker late = new ConsumerWorker("d-late",
                    servers.consumerProperties(group, "d-late", SAFE_SESSION_MS), List.of(topic), log);
            workers.add(late);
            awaitOwnersDelivering(log, group, topic, "b-child", "b-child", "c-thread", "c-thread", "d-late", "d-late");

            leaving.close(); // graceful: revoke, commit, release
            awaitOwnersDelivering(log, group, topic, "c-thread", "c-thread", "c-thread", "d-late", "d-late", "d-late");

            produced = producer.stop();
            long total = java.util.Arrays.stream(produced).sum();
            await("all " + total + " records delivered").atMost(WAIT).until(() -> log.distinct() >= total);
            assertThat(workers).noneMatch(ConsumerWorker::failed);
            while (!workers.isEmpty()) {
                workers.remove(0).close();
            }

            assertThat(monotonic.violations()).as("committed offsets never move backwards").isEmpty();
            assertThat(monotonic.observations()).isPositive();
            System.out.printf("KilledConsumerIT: %d records, %d deliveries, killed member delivered %d, takeover %d ms "
                            + "after the kill, %.1f s in all%n", total, log.size(), killedDelivered, takeoverMillis,
                    (System.nanoTime() - started) / 1e9);
        } finally {
            children.forEach(ChildConsumer::destroy);
            for (ConsumerWorker w : workers) {
                try {
                    w.close();
                } catch (RuntimeException e) {
                    System.err.println("after a failure: " + e.getMessage());
                }
            }
        }

        for (int p = 0; p < PARTITIONS; p++) {
            assertThat(log.missing(new TopicPartition(topic, p), produced[p])).as("never delivered, partition " + p).isEmpty();
        }
        List<DeliveryLog.Move> fromKilled = log.moves().stream()
                .filter(h -> h.from().equals("a-killed") && h.partition().partition() <= 1).toList();
        List<DeliveryLog.Move> graceful = log.moves().stream().filter(h -> !fromKilled.contains(h)).toList();
        System.out.println("KilledConsumerIT moves: " + log.moves());
        assertThat(fromKilled).as("the killed member's partitions went to b-child").hasSize(2)
                .allSatisfy(h -> assertThat(h.to()).isEqualTo("b-child"));
        assertThat(fromKilled).allSatisfy(h -> {
            long committed = committedAtKill.get(h.partition().partition());
            assertThat(h.firstOfNext()).as("the next owner starts at the killed member's last commit: " + h).isEqualTo(committed);
            assertThat(h.overlap()).as("re-delivered: what the killed member delivered after its last commit: " + h)
                    .isEqualTo(h.lastOfPrevious() + 1 - committed).isNotNegative();
        });
        assertThat(graceful).as("graceful moves").isNotEmpty()
                .allSatisfy(h -> assertThat(h.overlap()).as(h.toString()).isZero());
        long duplicates = log.size() - log.distinct();
        assertThat(duplicates).as("every duplicate comes from the killed member's uncommitted window")
                .isEqualTo(fromKilled.stream().mapToLong(DeliveryLog.Move::overlap).sum());
        assertThat(log.interleavings(Set.of())).as("partitions delivered by two members at once").isEmpty();
        System.out.println("KilledConsumerIT: duplicates " + duplicates + " (committed at kill " + committedAtKill + ")");
    }

    private static ChildConsumer child(String name, int sessionTimeoutMs, String group, String topic, DeliveryLog log,
                                       List<ChildConsumer> children) {
        Map<String, String> p = new LinkedHashMap<>();
        servers.consumerProperties(group, name, sessionTimeoutMs).forEach((k, v) -> p.put(k.toString(), v.toString()));
        ChildConsumer child = ChildConsumer.start(name, topic, p, log);
        children.add(child);
        return child;
    }

    /** Waits until partition i is owned by {@code members[i]} (member names: the consumer.id). */
    private static void awaitOwners(String group, String topic, String... members) {
        Map<Integer, String> expected = new TreeMap<>();
        IntStream.range(0, members.length).forEach(i -> expected.put(i, members[i]));
        await("owners " + expected).atMost(WAIT).pollInterval(Duration.ofMillis(20)).ignoreExceptions()
                .until(() -> owners(group, topic).equals(expected));
    }

    /**
     * Waits until partition i is owned by {@code members[i]} and that member delivered its latest record: records
     * keep arriving, so each new owner has resumed its partitions, and each move is in the delivery log.
     */
    private static void awaitOwnersDelivering(DeliveryLog log, String group, String topic, String... members) {
        awaitOwners(group, topic, members);
        await("latest deliveries by " + List.of(members)).atMost(WAIT).pollInterval(Duration.ofMillis(20))
                .until(() -> IntStream.range(0, members.length)
                        .allMatch(p -> members[p].equals(log.lastDeliverer(new TopicPartition(topic, p)))));
    }

    /** Partition → owning member, from the owner znodes (thread id {@code <group>_<consumer.id>-0}). */
    private static Map<Integer, String> owners(String group, String topic) throws Exception {
        Map<Integer, String> owners = new TreeMap<>();
        String path = "/consumers/" + group + "/owners/" + topic;
        if (servers.client().checkExists().forPath(path) == null) {
            return owners;
        }
        for (String partition : servers.client().getChildren().forPath(path)) {
            byte[] data = servers.client().getData().forPath(path + "/" + partition);
            String thread = new String(data, StandardCharsets.UTF_8);
            owners.put(Integer.parseInt(partition), thread.substring(group.length() + 1, thread.lastIndexOf('-')));
        }
        return owners;
    }
}
