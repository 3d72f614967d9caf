package io.zkgroups.it.consumer;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.model.TopicRegistration;
import io.zkgroups.testing.TcpProxy;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a lost session hands out again is bounded by {@code zkgroups.max.uncommitted.records}, also when it is lost in
 * the middle of a catch-up many times larger than {@code max.poll.records}. A member consumes and commits; the broker
 * is stopped while records keep being produced (the producer buffers them and delivers them once the broker is back);
 * when the member hands out the first record of the backlog, its ZooKeeper link goes silent (a proxy turned into a
 * black hole), so its next commit cannot land and its session expires on the server. Once it has rejoined, it
 * starts again at its last confirmed commit: per partition, the records it handed out twice must be at most the cap.
 * Without the cap the member hands out the backlog in polls of {@code max.poll.records} until its commit is due or
 * its lease runs out, and all of it comes again.
 */
@Timeout(180)
class RepeatBoundIT {

    private static final int PARTITIONS = 2;
    private static final int BEFORE = 50;
    /** Per partition, many polls' worth. */
    private static final int BACKLOG = 2_000;
    private static final int MAX_POLL_RECORDS = 100;
    private static final int CAP = 300;
    private static final int SESSION_TIMEOUT_MS = 3_000;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();
    private static EmbeddedKafka kafka;
    private static ZkRegistry registry;

    /** How the member commits. */
    enum Commits {
        /** The application calls {@code commitSync()} every second ({@code enable.auto.commit=false}). */
        APPLICATION,
        /** Auto-commit with 0.8's default interval, 60 s: the cap makes it commit when a partition reaches it. */
        AUTO
    }

    @BeforeAll
    static void startBroker() {
        kafka = EmbeddedKafka.startKRaftMode(0, 0);
        registry = ZkRegistry.of(zk.newClient());
        registry.brokers().register(BrokerInfo.v1(kafka.brokerId(), "127.0.0.1", kafka.port(), -1,
                System.currentTimeMillis()));
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Commits.class)
    void aSessionLostInTheMiddleOfACatchUpHandsOutAgainAtMostTheCap(Commits commits) throws Exception {
        String topic = "repeat-" + commits.name().toLowerCase();
        kafka.createTopic(topic, PARTITIONS);
        registry.topics().create(topic, TopicRegistration.v1(PARTITIONS, List.of(kafka.brokerId())));
        int zkPort = Integer.parseInt(zk.connectString().substring(zk.connectString().lastIndexOf(':') + 1));
        CuratorFramework observer = zk.newClient();
        List<ConsumerRecord<String, String>> delivered = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicBoolean zooKeeperSilenced = new AtomicBoolean();
        AtomicLong handedOutWhenSilenced = new AtomicLong(-1);
        ExecutorService application = Executors.newSingleThreadExecutor();
        try (TcpProxy zkLink = TcpProxy.start("member-zookeeper", zkPort);
             KafkaProducer<String, String> producer = producer()) {
            produce(producer, topic, 0, BEFORE);
            producer.flush();
            String registration = "/consumers/" + topic + "/ids/" + topic + "_member";
            Future<?> loop = application.submit(() -> {
                try (ZkGroupConsumer<String, String> member = new ZkGroupConsumer<>(props(topic, zkLink, commits),
                        new StringDeserializer(), new StringDeserializer())) {
                    member.subscribe(List.of(topic));
                    boolean committedBefore = false;
                    long nextCommit = System.nanoTime();
                    while (running.get()) {
                        for (ConsumerRecord<String, String> r : member.poll(Duration.ofMillis(100))) {
                            delivered.add(r);
                            if (r.offset() >= BEFORE && zooKeeperSilenced.compareAndSet(false, true)) {
                                // the first record of the backlog: ZooKeeper goes quiet now, a commit is a second away
                                zkLink.blackhole();
                                handedOutWhenSilenced.set(delivered.size());
                                nextCommit = System.nanoTime() + Duration.ofSeconds(1).toNanos();
                            }
                        }
                        if (!committedBefore && delivered.size() == PARTITIONS * BEFORE) {
                            member.commitSync();
                            committedBefore = true;
                        }
                        if (commits == Commits.APPLICATION && System.nanoTime() - nextCommit >= 0) {
                            nextCommit = System.nanoTime() + Duration.ofSeconds(1).toNanos();
                            try {
                                member.commitSync();
                            } catch (KafkaException e) {
                                // ZooKeeper silent, the session lost: the records are handed out again
                            }
                        }
                    }
                }
                return null;
            });
            await("the records before the outage committed").atMost(WAIT)
                    .until(() -> committed(topic, 0) == BEFORE && committed(topic, 1) == BEFORE);
            long sessionBefore = observer.checkExists().forPath(registration).getEphemeralOwner();

            kafka.stop();
            produce(producer, topic, BEFORE, BEFORE + BACKLOG); // buffered in the producer until the broker is back
            kafka.restart();
            producer.flush();
            await("the member hands out the backlog and ZooKeeper goes quiet").atMost(WAIT)
                    .until(zooKeeperSilenced::get);
            await("the member's session expired on the server").atMost(WAIT).until(() -> {
                Stat stat = observer.checkExists().forPath(registration);
                return stat == null || stat.getEphemeralOwner() != sessionBefore;
            });
            int afterLoss = delivered.size();
            zkLink.heal();
            await("the member rejoined and handed out every partition to its end again").atMost(WAIT)
                    .until(() -> reachedTheEndSince(delivered, afterLoss));
            running.set(false);
            loop.get();
            int total = PARTITIONS * (BEFORE + BACKLOG);
            assertThat(distinct(delivered)).as("every record handed out").isEqualTo(total);

            assertThat(handedOutWhenSilenced.get()).as("the session was lost in the middle of the catch-up")
                    .isLessThan(total);
            Map<Integer, Integer> repeats = repeatsByPartition(delivered);
            assertThat(repeats).as("records handed out twice per partition, bound "
                    + "zkgroups.max.uncommitted.records = " + CAP).allSatisfy((p, n) -> assertThat(n).isLessThanOrEqualTo(CAP));
            assertThat(repeats.values().stream().mapToInt(Integer::intValue).sum())
                    .as("the lost session did hand records out again (else this test shows nothing)").isPositive();
        } finally {
            running.set(false);
            application.shutdownNow();
        }
    }

    private static Properties props(String group, TcpProxy zkLink, Commits commits) {
        Properties p = new Properties();
        p.setProperty("zookeeper.connect", "127.0.0.1:" + zkLink.port());
        p.setProperty("group.id", group);
        p.setProperty("consumer.id", "member");
        p.setProperty("auto.offset.reset", "smallest");
        p.setProperty("zookeeper.session.timeout.ms", String.valueOf(SESSION_TIMEOUT_MS));
        p.setProperty("rebalance.backoff.ms", "300");
        p.setProperty("max.poll.records", String.valueOf(MAX_POLL_RECORDS));
        p.setProperty("zkgroups.max.uncommitted.records", String.valueOf(CAP));
        p.setProperty("reconnect.backoff.max.ms", "200");
        if (commits == Commits.APPLICATION) {
            p.setProperty("enable.auto.commit", "false");
        } else {
            p.setProperty("auto.commit.enable", "true");
            p.setProperty("auto.commit.interval.ms", "60000");
        }
        return p;
    }

    private static KafkaProducer<String, String> producer() {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.setProperty(ProducerConfig.ACKS_CONFIG, "all");
        p.setProperty(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200");
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    private static void produce(KafkaProducer<String, String> producer, String topic, int from, int to) {
        for (int i = from; i < to; i++) {
            for (int p = 0; p < PARTITIONS; p++) {
                producer.send(new ProducerRecord<>(topic, p, "k" + i, p + "-" + i));
            }
        }
    }

    private static long committed(String group, int partition) {
        TopicAndPartition tp = TopicAndPartition.of(group, partition); // the group is named as its topic
        Long offset = registry.offsets().read(group, List.of(tp)).offsets().get(tp);
        return offset == null ? -1 : offset;
    }

    /** Whether the last record of every partition was handed out at index {@code from} of {@code delivered} or later. */
    private static boolean reachedTheEndSince(List<ConsumerRecord<String, String>> delivered, int from) {
        Set<Integer> done = new HashSet<>();
        synchronized (delivered) {
            for (ConsumerRecord<String, String> r : delivered.subList(from, delivered.size())) {
                if (r.offset() == BEFORE + BACKLOG - 1) {
                    done.add(r.partition());
                }
            }
        }
        return done.size() == PARTITIONS;
    }

    private static int distinct(List<ConsumerRecord<String, String>> delivered) {
        Set<String> seen = new HashSet<>();
        synchronized (delivered) {
            delivered.forEach(r -> seen.add(r.partition() + "@" + r.offset()));
        }
        return seen.size();
    }

    private static Map<Integer, Integer> repeatsByPartition(List<ConsumerRecord<String, String>> delivered) {
        Map<Integer, Integer> repeats = new TreeMap<>();
        Set<String> seen = new HashSet<>();
        synchronized (delivered) {
            for (ConsumerRecord<String, String> r : delivered) {
                repeats.putIfAbsent(r.partition(), 0);
                if (!seen.add(r.partition() + "@" + r.offset())) {
                    repeats.merge(r.partition(), 1, Integer::sum);
                }
            }
        }
        return repeats;
    }
}
