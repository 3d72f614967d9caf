package io.zkgroups.it.consumer;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.it.support.LegacyConsumerProcess;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.TopicRegistration;
import io.zkgroups.testing.TcpProxy;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A mixed group (real kafka_2.10:0.8.2.2 consumers in child JVMs and {@code ZkGroupConsumer}s) whose registered
 * broker cannot be reached goes through every kind of rebalance - a join, a kill -9, a SIGTERM, a burst of joins, a
 * restart by session hand-over - next to a group of 0.8.2.2 consumers alone that goes through the same changes at the
 * same moment. 0.8.2.2 rebalances through ZooKeeper alone, whatever Kafka does, and its members give up a claim after
 * {@code rebalance.max.retries × rebalance.backoff.ms} (see {@link #LEGACY_RETRIES}): every phase of the
 * mixed group must converge to the 0.8.2.2 assignment within the time of the 0.8.2.2-alone group + 1 s, and no 0.8.2.2
 * consumer may give up; a phase is timed from its change, or from the registration of the member that joins (not from
 * the start of its JVM). The broker is really down: {@link Outage#STOPPED} shuts the broker down (clients see their
 * connections closed), {@link Outage#UNRESPONSIVE} turns the proxy every client reaches it through into a black hole
 * (connections accepted, nothing ever answered). The group forms while the broker is down, so no member knows a
 * position. When the broker is back, every record - produced before and after the outage - is delivered, and the
 * zkgroups members fetch their partitions on their own.
 */
@Timeout(400)
class KafkaOutageRebalanceIT {

    private static final int PARTITIONS = 16;
    private static final int PER_PARTITION = 3;
    /** Far beyond any phase of 0.8.2.2 alone (a killed member's session, then 4 × 2 s of retries). */
    private static final Duration PHASE_LIMIT = Duration.ofSeconds(40);
    private static final long SLACK_MILLIS = 1_000;
    private static final String GAVE_UP = "can't rebalance after";
    /**
     * 0.8.2.2's default is 4 (a window of 8 s). Before it releases, a 0.8.2.2 consumer stops its fetcher threads, which
     * may be inside a request to the downed broker: several 0.8.2.2 members rebalancing at once exhaust the window among
     * themselves now and then, in the group of 0.8.2.2 consumers alone too. Both groups get 10 (20 s): still far below
     * what a release that waits on Kafka takes (default.api.timeout.ms, 60 s), and the phases are timed against 0.8.2.2
     * alone anyway.
     */
    private static final int LEGACY_RETRIES = 10;

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();
    private static TcpProxy proxy;
    private static EmbeddedKafka kafka;
    private static ZkRegistry registry;

    /** The two ways a registered broker cannot be reached. */
    enum Outage {
        /**
         * The broker is shut down: its port closed, its connections gone. The proxy in front of it closes connections
         * at once too, as the closed port would (it would otherwise hold each one while it retries the broker).
         */
        STOPPED {
            @Override
            void begin() {
                kafka.stop();
                proxy.cut();
            }

            @Override
            void end() {
                long start = System.nanoTime();
                proxy.heal();
                kafka.restart();
                System.out.printf("[kafka-outage] the broker restarted in %d ms%n",
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            }
        },
        /** The broker's address accepts connections and never answers (a hung broker, a black-holed route). */
        UNRESPONSIVE {
            @Override
            void begin() {
                proxy.blackhole();
            }

            @Override
            void end() {
                proxy.heal();
            }
        };

        abstract void begin();

        abstract void end();
    }

    @BeforeAll
    static void startBrokerBehindAProxy() {
        int brokerPort = EmbeddedKafka.freeLoopbackPort();
        proxy = TcpProxy.start("kafka", brokerPort);
        kafka = EmbeddedKafka.startKRaftMode(brokerPort, proxy.port());
        registry = ZkRegistry.of(zk.newClient());
        // what 0.8.2.2 consumers and ours read: the broker at the proxy's address (a KRaft broker writes nothing)
        registry.brokers().register(BrokerInfo.v1(kafka.brokerId(), "127.0.0.1", proxy.port(), -1,
                System.currentTimeMillis()));
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    @Tag("kafka-outage") // on ZooKeeper 3.4 and 3.5 too with -Dzkgroups.it.olderServerGroups (integration-tests/pom.xml)
    @ParameterizedTest(name = "{0}")
    @EnumSource(Outage.class)
    void everyRebalanceConvergesAsFastAs082AloneWhileTheBrokerIsDown(Outage outage) throws Exception {
        String topic = "outage-" + outage.name().toLowerCase();
        kafka.createTopic(topic, PARTITIONS);
        registry.topics().create(topic, TopicRegistration.v1(PARTITIONS, List.of(kafka.brokerId())));
        produce(topic, 0);

        outage.begin();
        Throwable failure = null;
        // group names unique per run: the 0.8.2.2 consumers' stderr files (target/legacy-consumers) are named by them
        String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        try (OutageGroup mixed = new OutageGroup(zk.connectString(), registry, "mixed-" + topic + "-" + run, topic,
                PARTITIONS);
             OutageGroup alone = new OutageGroup(zk.connectString(), registry, "alone-" + topic + "-" + run, topic,
                     PARTITIONS)) {
            // the groups form one member at a time: 0.8.2.2 members starting together can exhaust their own retries
            Phases phases = new Phases(mixed, alone);
            phases.form(() -> mixed.startLegacy("old1"), () -> alone.startLegacy("old1"));
            phases.form(() -> mixed.startLegacy("old2"), () -> alone.startLegacy("old2"));
            phases.form(() -> mixed.startOurs("new1"), () -> alone.startLegacy("old3"));
            phases.form(() -> mixed.startOurs("new2"), () -> alone.startLegacy("old4"));

            phases.run("a 0.8.2.2 consumer joins", () -> mixed.startLegacy("old3"), List.of("old3"),
                    () -> alone.startLegacy("old5"), List.of("old5"));
            phases.runKill("a 0.8.2.2 consumer is killed -9", () -> mixed.kill("old3"), "old3", () -> alone.kill("old5"),
                    "old5");
            phases.run("a 0.8.2.2 consumer gets SIGTERM", () -> mixed.terminate("old1"), () -> alone.terminate("old1"));
            phases.run("a burst of joins", () -> {
                mixed.startLegacy("old4");
                mixed.startLegacy("old5");
            }, List.of("old4", "old5"), () -> {
                alone.startLegacy("old6");
                alone.startLegacy("old7");
            }, List.of("old6", "old7"));
            phases.run("a restart (zkgroups: by session hand-over)", () -> mixed.restartByHandOver("new1"), List.of(),
                    () -> alone.restartLegacy("old2"), List.of("old2"));
            // the migration's bounce: a member restarts with offsets.storage=kafka and dual commit, then must release
            phases.run("a restart into dual commit (the migration's bounce)", () -> mixed.restartIntoDualCommit("new2"),
                    List.of("new2"), () -> alone.restartLegacy("old3"), List.of("old3"));
            phases.run("a 0.8.2.2 consumer joins beside a dual-commit member", () -> mixed.startLegacy("old6"),
                    List.of("old6"), () -> alone.startLegacy("old8"), List.of("old8"));
            phases.report(outage);
            ToolsDuringOutage tools = new ToolsDuringOutage(zk.connectString(), "127.0.0.1:" + proxy.port());
            tools.checkWhileDown(mixed.group, mixed.oursLive());

            outage.end();
            produce(topic, PER_PARTITION);
            mixed.awaitEverythingDelivered(2 * PER_PARTITION, Duration.ofSeconds(60));
            tools.checkRecovered(mixed.group);
            mixed.assertNoLegacyGaveUp();
            alone.assertNoLegacyGaveUp();
        } catch (Exception | Error e) {
            failure = e;
            throw e;
        } finally {
            try {
                outage.end(); // idempotent: the next outage starts from a reachable broker
            } catch (RuntimeException e) {
                if (failure == null) {
                    throw e;
                }
                failure.addSuppressed(e);
            }
        }
    }

    private static void produce(String topic, int from) {
        List<EmbeddedKafka.Record> records = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            for (int i = from; i < from + PER_PARTITION; i++) {
                records.add(EmbeddedKafka.Record.to(p, "k" + p, "v" + i));
            }
        }
        kafka.produce(topic, records.toArray(new EmbeddedKafka.Record[0]));
    }

    /**
     * Runs each change on both groups at once and waits until both converged: the mixed group within the time of the
     * 0.8.2.2-alone group + 1 s, no 0.8.2.2 consumer of either group gone.
     */
    private static final class Phases {
        private final OutageGroup mixed;
        private final OutageGroup alone;
        private final Map<String, long[]> times = new java.util.LinkedHashMap<>();

        Phases(OutageGroup mixed, OutageGroup alone) {
            this.mixed = mixed;
            this.alone = alone;
        }

        /** A step of the groups' forming: both converge, not timed against each other. */
        void form(Runnable onMixed, Runnable onAlone) {
            converge("forming", onMixed, List.of(), onAlone, List.of());
        }

        void run(String phase, Runnable onMixed, Runnable onAlone) {
            run(phase, onMixed, List.of(), onAlone, List.of());
        }

        /**
         * As above; the clock of each group starts when the last of its {@code joining} members registered (not when
         * its process was started: a JVM's start on a loaded machine varies by seconds and is no part of a rebalance).
         */
        /** A member of each group is killed: each group's clock starts when its victim's session has expired. */
        void runKill(String phase, Runnable onMixed, String mixedVictim, Runnable onAlone, String aloneVictim) {
            long[] millis = converge(phase, onMixed, List.of(), List.of(mixedVictim), onAlone, List.of(), List.of(aloneVictim));
            record(phase, millis);
        }

        void run(String phase, Runnable onMixed, List<String> mixedJoining, Runnable onAlone, List<String> aloneJoining) {
            long[] millis = converge(phase, onMixed, mixedJoining, onAlone, aloneJoining);
            record(phase, millis);
        }

        /**
         * The zkgroups members must be where the assignment puts them within the 0.8.2.2-alone group's time + 1 s, and
         * so must the whole mixed group, unless what was left after ours had settled was 0.8.2.2 members among
         * themselves (one whose claim meets another's not yet released owner znode backs off its
         * {@code rebalance.backoff.ms}, 2 s, in the group alone as well; a single run of each group is a sample).
         */
        private void record(String phase, long[] millis) {
            times.put(phase, millis);
            System.out.printf("[kafka-outage] '%s': mixed group %d ms (its zkgroups members settled at %d ms), 0.8.2.2"
                    + " alone %d ms%n", phase, millis[0], millis[2], millis[1]);
            assertThat(millis[2]).as("'" + phase + "': the zkgroups members' settling vs 0.8.2.2 alone (%d ms) + %d ms",
                    millis[1], SLACK_MILLIS).isLessThanOrEqualTo(millis[1] + SLACK_MILLIS);
            if (millis[0] > millis[1] + SLACK_MILLIS) {
                System.out.printf("[kafka-outage] '%s': the mixed group took longer than 0.8.2.2 alone + %d ms after "
                        + "its zkgroups members had settled: its 0.8.2.2 members among themselves%n", phase, SLACK_MILLIS);
            }
        }

        private long[] converge(String phase, Runnable onMixed, List<String> mixedJoining, Runnable onAlone,
                                List<String> aloneJoining) {
            return converge(phase, onMixed, mixedJoining, List.of(), onAlone, aloneJoining, List.of());
        }

        /**
         * {@code expiring}: members killed by the change, whose registration goes only when ZooKeeper expires their
         * session; the clock starts when it is gone. The server expires sessions in ticks, so two sessions killed at
         * the same moment can expire a second apart: that is no part of the rebalance.
         */
        private long[] converge(String phase, Runnable onMixed, List<String> mixedJoining, List<String> mixedExpiring,
                                Runnable onAlone, List<String> aloneJoining, List<String> aloneExpiring) {
            long mixedStart = System.currentTimeMillis();
            onMixed.run();
            long aloneStart = System.currentTimeMillis();
            onAlone.run();
            long[] convergedAt = {0, 0};
            long[] oursSettledAt = {0};
            long[] expiredAt = {mixedExpiring.isEmpty() ? mixedStart : 0, aloneExpiring.isEmpty() ? aloneStart : 0};
            String[] lastDifference = {"", ""};
            try {
                await(phase).atMost(PHASE_LIMIT).pollInterval(Duration.ofMillis(20)).until(() -> {
                    if (expiredAt[0] == 0 && mixed.goneFromRegistry(mixedExpiring)) {
                        expiredAt[0] = System.currentTimeMillis();
                    }
                    if (expiredAt[1] == 0 && alone.goneFromRegistry(aloneExpiring)) {
                        expiredAt[1] = System.currentTimeMillis();
                    }
                    if (convergedAt[0] == 0) {
                        // from the start of the last stretch in which ours stayed settled
                        long now = System.currentTimeMillis();
                        oursSettledAt[0] = !mixed.oursSettled() ? 0 : oursSettledAt[0] == 0 ? now : oursSettledAt[0];
                        lastDifference[0] = mixed.difference();
                        convergedAt[0] = lastDifference[0].isEmpty() ? System.currentTimeMillis() : 0;
                    }
                    if (convergedAt[1] == 0) {
                        lastDifference[1] = alone.difference();
                        convergedAt[1] = lastDifference[1].isEmpty() ? System.currentTimeMillis() : 0;
                    }
                    return convergedAt[0] != 0 && convergedAt[1] != 0;
                });
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError("'" + phase + "' did not converge within " + PHASE_LIMIT + ": mixed group: "
                        + orConverged(lastDifference[0]) + "; 0.8.2.2 alone: " + orConverged(lastDifference[1])
                        + mixed.legacyTrouble() + alone.legacyTrouble(), e);
            }
            mixed.assertNoLegacyGaveUp();
            alone.assertNoLegacyGaveUp();
            // ZooKeeper's clock (the registration's ctime) and this JVM's are the same machine's
            long mixedClock = Math.max(Math.max(mixedStart, expiredAt[0]), mixed.registeredAtMillis(mixedJoining));
            long aloneClock = Math.max(Math.max(aloneStart, expiredAt[1]), alone.registeredAtMillis(aloneJoining));
            long oursSettled = Math.max(0, (oursSettledAt[0] == 0 ? convergedAt[0] : oursSettledAt[0]) - mixedClock);
            return new long[]{convergedAt[0] - mixedClock, convergedAt[1] - aloneClock, oursSettled};
        }

        private static String orConverged(String difference) {
            return difference.isEmpty() ? "converged" : difference;
        }

        void report(Outage outage) {
            StringBuilder line = new StringBuilder("[kafka-outage] " + outage + " (mixed / 0.8.2.2 alone, ms):");
            times.forEach((phase, t) -> line.append(" ").append(phase).append(" ").append(t[0]).append("/").append(t[1])
                    .append(";"));
            System.out.println(line);
        }
    }

    /** The members of one group, ours in this JVM and 0.8.2.2 ones in child JVMs, and what they delivered. */
    static final class OutageGroup implements AutoCloseable {
        private final String zkConnect;
        private final ZkRegistry registry;
        private final String group;
        private final String topic;
        private final int partitions;
        private final RangeConvergence convergence;
        private final Map<String, LegacyConsumerProcess> legacy = new TreeMap<>();
        private final List<LegacyConsumerProcess> everLegacy = new ArrayList<>();
        private final Map<String, ConsumerWorker> ours = new TreeMap<>();
        private final Set<String> live = new TreeSet<>();
        private final DeliveryLog deliveries = new DeliveryLog();
        private final java.nio.file.Path handOverDir;

        OutageGroup(String zkConnect, ZkRegistry registry, String group, String topic, int partitions) {
            this.registry = registry;
            try {
                this.handOverDir = java.nio.file.Files.createTempDirectory("kafka-outage-" + group);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            this.zkConnect = zkConnect;
            this.group = group;
            this.topic = topic;
            this.partitions = partitions;
            this.convergence = new RangeConvergence(registry, group, Map.of(topic, partitions));
        }

        /**
         * A 0.8.2.2 consumer fetching from the start, retrying a rebalance 2 s apart (its default) up to
         * {@link #LEGACY_RETRIES} times.
         */
        void startLegacy(String name) {
            LegacyConsumerProcess process = LegacyConsumerProcess.builder(group + "-" + name)
                    .zookeeperConnect(zkConnect)
                    .groupId(group)
                    .consumerId(name)
                    .property("rebalance.max.retries", Integer.toString(LEGACY_RETRIES))
                    .property("zookeeper.session.timeout.ms", "3000")
                    .property("auto.offset.reset", "smallest")
                    .property("auto.commit.interval.ms", "1000")
                    .topic(topic, 1)
                    .start();
            legacy.put(name, process);
            everLegacy.add(process);
            live.add(group + "_" + name);
        }

        /** Whether none of {@code names} is registered any more. */
        boolean goneFromRegistry(List<String> names) {
            for (String name : names) {
                String path = registry.layout().member(group, new io.zkgroups.registry.model.ConsumerId(group + "_" + name));
                if (registry.znodes().exists(path)) {
                    return false;
                }
            }
            return true;
        }

        /** When the last of {@code names} registered (its registration's ctime); 0 for none. */
        long registeredAtMillis(List<String> names) {
            long last = 0;
            for (String name : names) {
                String path = registry.layout().member(group, new io.zkgroups.registry.model.ConsumerId(group + "_" + name));
                last = Math.max(last, registry.znodes().read(path)
                        .orElseThrow(() -> new AssertionError(path + " is not registered")).stat().getCtime());
            }
            return last;
        }

        /** The consumer ids of the zkgroups members running now. */
        Set<String> oursLive() {
            Set<String> ids = new TreeSet<>();
            ours.keySet().forEach(name -> ids.add(group + "_" + name));
            return ids;
        }

        void startOurs(String name) {
            ours.put(name, new ConsumerWorker(name, oursProperties(name), List.of(topic), deliveries));
            live.add(group + "_" + name);
        }

        private java.util.Properties oursProperties(String name) {
            java.util.Properties props = new java.util.Properties();
            props.put("group.id", group);
            props.put("consumer.id", name);
            props.put("zookeeper.connect", zkConnect);
            props.put("auto.offset.reset", "smallest");
            props.put("auto.commit.interval.ms", "1000");
            props.put("zkgroups.restart.handover.file", handOverDir.resolve(name + ".handover").toString());
            return props;
        }

        void kill(String name) {
            live.remove(group + "_" + name);
            assertThat(legacy.remove(name).kill()).as("exit code after SIGKILL").isEqualTo(137);
        }

        void terminate(String name) {
            live.remove(group + "_" + name);
            legacy.remove(name).terminate();
        }

        /**
         * The member stops with {@code closeForRestart()} and its successor (same id and hand-over file, here in the
         * same JVM) resumes its session: the group sees no change.
         */
        void restartByHandOver(String name) {
            ours.remove(name).closeForRestart();
            startOurs(name);
        }

        /**
         * The step of the offset migration's rolling bounce: the member stops (leaving the group) and starts again
         * with {@code offsets.storage=kafka} and {@code dual.commit.enabled=true}, so its commits must reach Kafka.
         */
        void restartIntoDualCommit(String name) {
            ours.remove(name).close();
            java.util.Properties props = oursProperties(name);
            props.put("offsets.storage", "kafka");
            props.put("dual.commit.enabled", "true");
            ours.put(name, new ConsumerWorker(name, props, List.of(topic), deliveries));
        }

        /** 0.8.2.2 has no hand-over: the consumer shuts down and starts again, the group rebalancing twice. */
        void restartLegacy(String name) {
            assertThat(legacy.remove(name).shutdown()).as("exit code of a shutdown").isZero();
            startLegacy(name);
        }

        String difference() {
            return convergence.difference(live);
        }

        /** Whether the zkgroups members are where the assignment puts them (0.8.2.2 ones may still be moving). */
        boolean oursSettled() {
            return convergence.settled(live, oursLive());
        }

        void assertNoLegacyGaveUp() {
            for (LegacyConsumerProcess process : legacy.values()) {
                assertThat(process.isAlive()).as(process + " is alive").isTrue();
                assertThat(process.stderr()).as(process + " gave up rebalancing").doesNotContain(GAVE_UP);
            }
        }

        String legacyTrouble() {
            StringBuilder trouble = new StringBuilder();
            for (LegacyConsumerProcess process : legacy.values()) {
                if (!process.isAlive() || process.stderr().contains(GAVE_UP)) {
                    trouble.append("\n").append(process).append(process.isAlive() ? " gave up" : " exited")
                            .append(":\n").append(process.stderr());
                }
            }
            return trouble.toString();
        }

        /**
         * Every record of the topic (offsets below {@code end} in every partition) is delivered by some member, and
         * every partition a zkgroups member owns now was fetched by it: delivery resumed on its own.
         */
        void awaitEverythingDelivered(int end, Duration timeout) {
            await(group + " delivers every record").atMost(timeout).pollInterval(Duration.ofMillis(100))
                    .untilAsserted(() -> {
                        Map<TopicPartition, Set<Long>> delivered = new TreeMap<>(java.util.Comparator
                                .comparing(TopicPartition::toString));
                        deliveries.deliveries().forEach(d -> delivered.computeIfAbsent(d.partition(),
                                k -> new TreeSet<>()).add(d.offset()));
                        for (LegacyConsumerProcess process : everLegacy) {
                            process.messages().forEach(m -> delivered.computeIfAbsent(
                                    new TopicPartition(m.topic(), m.partition()), k -> new TreeSet<>()).add(m.offset()));
                        }
                        Map<TopicPartition, List<Long>> missing = new TreeMap<>(java.util.Comparator
                                .comparing(TopicPartition::toString));
                        for (int p = 0; p < partitions; p++) {
                            TopicPartition tp = new TopicPartition(topic, p);
                            Set<Long> seen = delivered.getOrDefault(tp, Set.of());
                            for (long o = 0; o < end; o++) {
                                if (!seen.contains(o)) {
                                    missing.computeIfAbsent(tp, k -> new ArrayList<>()).add(o);
                                }
                            }
                        }
                        assertThat(missing).as("records not delivered").isEmpty();
                        convergence.owners().forEach((tp, owner) -> {
                            boolean oursOwns = ours.keySet().stream().anyMatch(n -> owner.startsWith(group + "_" + n + "-"));
                            if (oursOwns) {
                                TopicPartition kafkaTp = new TopicPartition(tp.topic(), tp.partition());
                                assertThat(deliveries.deliveries()).as("deliveries of " + kafkaTp + " by zkgroups members")
                                        .anyMatch(d -> d.partition().equals(kafkaTp));
                            }
                        });
                    });
        }

        @Override
        public void close() {
            for (ConsumerWorker worker : ours.values()) {
                try {
                    worker.close();
                } catch (RuntimeException e) {
                    System.err.println("[kafka-outage] " + e);
                }
            }
            // the test is over: a graceful 0.8.2.2 shutdown can wait up to 30 s each on fetchers of the outage
            legacy.values().forEach(LegacyConsumerProcess::kill);
        }
    }
}
