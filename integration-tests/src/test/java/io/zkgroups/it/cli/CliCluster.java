package io.zkgroups.it.cli;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.codec.OffsetCodec;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.ThreadId;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.TestZooKeeper;
import io.zkgroups.tool.Main;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * One real ZooKeeper and one real ZooKeeper-mode Kafka broker (registered under a chroot) for a CLI test class,
 * with helpers to run the CLI in-process ({@link Main#run}) and to set up and read both offset stores directly.
 */
final class CliCluster implements AutoCloseable {

    static final String CHROOT = "/kafka";

    /** What one CLI run printed and returned. */
    record Run(int code, String out, String err) {
        private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

        /** Standard output read as JSON (it must be a JSON document, or the assertion names the run). */
        com.fasterxml.jackson.databind.JsonNode json() throws java.io.IOException {
            org.assertj.core.api.Assertions.assertThat(out).as(toString()).startsWith("{");
            return JSON.readTree(out);
        }

        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    final TestZooKeeper zk;
    final EmbeddedKafka kafka;
    final CuratorFramework curator;
    final ZkRegistry registry;
    private final List<CuratorFramework> sessions = new ArrayList<>();

    private CliCluster(TestZooKeeper zk, EmbeddedKafka kafka, CuratorFramework curator) {
        this.zk = zk;
        this.kafka = kafka;
        this.curator = curator;
        this.registry = new ZkRegistry(curator, ZkLayout.withChroot(CHROOT));
    }

    static CliCluster start() {
        TestZooKeeper zk = TestZooKeeper.start();
        try {
            EmbeddedKafka kafka = EmbeddedKafka.startZooKeeperMode(zk.connectString() + CHROOT);
            return new CliCluster(zk, kafka, zk.newClient());
        } catch (RuntimeException e) {
            zk.close();
            throw e;
        }
    }

    /** {@code --zookeeper} value: the connect string with the cluster's chroot. */
    String zookeeper() {
        return zk.connectString() + CHROOT;
    }

    /** Runs the CLI in this JVM with {@code --zookeeper} added (no --bootstrap-server: derived from /brokers/ids). */
    Run cli(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--zookeeper");
        all.add(zookeeper());
        return raw(all.toArray(String[]::new));
    }

    /** Runs the CLI in this JVM with exactly {@code args}. */
    static Run raw(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = Main.run(args, o, e);
        }
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    // ------------------------------------------------------------------ ZooKeeper side

    void setZk(String group, String topic, int partition, long offset) {
        registry.znodes().writePersistent(registry.layout().offset(group, new TopicAndPartition(topic, partition)),
                OffsetCodec.encode(offset));
    }

    void setZkRaw(String group, String topic, String partition, String data) {
        registry.znodes().writePersistent(registry.layout().offsets(group, topic) + "/" + partition,
                data.getBytes(StandardCharsets.UTF_8));
    }

    Long zkOffset(String group, String topic, int partition) {
        return registry.znodes().read(registry.layout().offset(group, new TopicAndPartition(topic, partition)))
                .map(d -> Long.parseLong(new String(d.bytes(), StandardCharsets.UTF_8))).orElse(null);
    }

    /** Registers a member in its own ZooKeeper session (closing the session deregisters it). */
    Member member(String group, String consumerId, Map<String, Integer> subscription) {
        return member(group, consumerId, subscription, Map.of());
    }

    /** Registers a member that advertises {@code capabilities} (a zkgroups member), in its own session. */
    Member member(String group, String consumerId, Map<String, Integer> subscription, Map<String, String> capabilities) {
        CuratorFramework session = zk.newClient(10_000);
        sessions.add(session);
        ZkRegistry r = new ZkRegistry(session, ZkLayout.withChroot(CHROOT));
        ConsumerId id = new ConsumerId(group + "_" + consumerId);
        r.members().register(group, id, MemberRegistration.of(Subscription.topics(subscription), System.currentTimeMillis())
                        .withCapabilities(capabilities), Duration.ZERO);
        return new Member(group, id, r, session);
    }

    /** A registered member; {@link #claim} creates owner znodes in its session. */
    record Member(String group, ConsumerId id, ZkRegistry registry, CuratorFramework session) {
        void claim(String topic, int thread, int... partitions) {
            Map<TopicAndPartition, ThreadId> claims = new TreeMap<>();
            for (int p : partitions) {
                claims.put(new TopicAndPartition(topic, p), id.thread(thread));
            }
            registry.owners().claim(group, id, claims);
        }

        void release(String topic, int... partitions) {
            List<TopicAndPartition> released = new ArrayList<>();
            for (int p : partitions) {
                released.add(new TopicAndPartition(topic, p));
            }
            registry.owners().release(group, released);
        }

        void leave() {
            session.close();
        }
    }

    // ------------------------------------------------------------------ Kafka side

    void setKafka(String group, Map<TopicPartition, Long> offsets) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> request = new HashMap<>();
        offsets.forEach((tp, o) -> request.put(tp, new OffsetAndMetadata(o)));
        kafka.admin().alterConsumerGroupOffsets(group, request).all().get(30, TimeUnit.SECONDS);
    }

    Map<TopicPartition, Long> kafkaOffsets(String group) throws Exception {
        Map<TopicPartition, Long> result = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        kafka.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS)
                .forEach((tp, om) -> {
                    if (om != null) {
                        result.put(tp, om.offset());
                    }
                });
        return result;
    }

    static TopicPartition tp(String topic, int partition) {
        return new TopicPartition(topic, partition);
    }

    /** Produces {@code n} records to each partition of {@code topic}. */
    void fill(String topic, int partitions, int n) {
        List<EmbeddedKafka.Record> records = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            for (int i = 0; i < n; i++) {
                records.add(EmbeddedKafka.Record.to(p, "k" + i, "v" + i));
            }
        }
        kafka.produce(topic, records.toArray(EmbeddedKafka.Record[]::new));
    }

    @Override
    public void close() {
        for (CuratorFramework s : sessions) {
            s.close();
        }
        try {
            kafka.close();
        } finally {
            zk.close();
        }
    }
}
