package io.zkgroups.chaos.cluster;

import io.zkgroups.testing.ChildJvm;
import io.zkgroups.testing.LegacyClasspath;
import io.zkgroups.testing.TcpProxy;
import io.zkgroups.testing.TestEnsemble;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * Everything a chaos run runs: the ZooKeeper ensemble, the broker, the producer and the member slots, all under one
 * run directory, plus the clients the orchestrator itself needs (an Admin, a Curator client, the health gate).
 * Faults act through it.
 */
public final class ChaosCluster implements AutoCloseable {

    /** The zkgroups members' {@code max.poll.records} (Kafka's default is 500). */
    public static final int MAX_POLL_RECORDS = 100;
    /**
     * The zkgroups members' {@code zkgroups.max.uncommitted.records}: the bound the monitor holds every unclean end of
     * theirs to (below what the produce rate, commit interval, session and max.poll.records gave before: 171).
     */
    public static final int MAX_UNCOMMITTED_RECORDS = 150;

    /**
     * The shape of the run: {@code members} zkgroups members, then {@code legacyMembers} real 0.8.2.2 consumers
     * (slots {@code members..members+legacyMembers-1}); {@code brokenMode} is slot 0's, if any;
     * {@code kafkaOffsets}: the zkgroups members store offsets in Kafka with dual commit
     * ({@code offsets.storage=kafka}, {@code dual.commit.enabled=true}) instead of ZooKeeper only;
     * {@code strategy}: the zkgroups members' {@code partition.assignment.strategy} (null: their default, range);
     * {@code handover}: each zkgroups slot restarts by session hand-over (docs/restarts.md), so its processes share
     * one consumer id, {@code m<slot>}, and one hand-over file; {@code zooKeeper}: the release the ensemble runs.
     */
    public record Settings(Path runDir, String group, String topic, int partitions, int members, int legacyMembers,
                           int recordsPerSecond, int sessionTimeoutMs, long commitIntervalMs, String brokenMode, int tickMs,
                           boolean kafkaOffsets, long slowProcessingMs, String strategy, boolean handover,
                           ZooKeeperServerRelease zooKeeper) {

        /** On the tool's own ZooKeeper server. */
        public Settings(Path runDir, String group, String topic, int partitions, int members, int legacyMembers,
                        int recordsPerSecond, int sessionTimeoutMs, long commitIntervalMs, String brokenMode, int tickMs,
                        boolean kafkaOffsets, long slowProcessingMs, String strategy, boolean handover) {
            this(runDir, group, topic, partitions, members, legacyMembers, recordsPerSecond, sessionTimeoutMs,
                    commitIntervalMs, brokenMode, tickMs, kafkaOffsets, slowProcessingMs, strategy, handover,
                    ZooKeeperServerRelease.current());
        }

        /** The same settings with the ensemble on {@code release}. */
        public Settings withZooKeeper(ZooKeeperServerRelease release) {
            return new Settings(runDir, group, topic, partitions, members, legacyMembers, recordsPerSecond,
                    sessionTimeoutMs, commitIntervalMs, brokenMode, tickMs, kafkaOffsets, slowProcessingMs, strategy,
                    handover, release);
        }

        /** zkgroups members on {@code range} (unless set otherwise), leaving on close rather than handing over. */
        public Settings(Path runDir, String group, String topic, int partitions, int members, int legacyMembers,
                        int recordsPerSecond, int sessionTimeoutMs, long commitIntervalMs, String brokenMode, int tickMs,
                        boolean kafkaOffsets, long slowProcessingMs) {
            this(runDir, group, topic, partitions, members, legacyMembers, recordsPerSecond, sessionTimeoutMs,
                    commitIntervalMs, brokenMode, tickMs, kafkaOffsets, slowProcessingMs, null, false);
        }

        /** The defaults of the last two: ZooKeeper offsets, slow-processing for 1.5 session timeouts. */
        public Settings(Path runDir, String group, String topic, int partitions, int members, int legacyMembers,
                        int recordsPerSecond, int sessionTimeoutMs, long commitIntervalMs, String brokenMode, int tickMs,
                        boolean kafkaOffsets) {
            this(runDir, group, topic, partitions, members, legacyMembers, recordsPerSecond, sessionTimeoutMs,
                    commitIntervalMs, brokenMode, tickMs, kafkaOffsets, 3L * sessionTimeoutMs / 2);
        }

        /**
         * The members' {@code zkgroups.revoke.timeout.ms}: 1.25 session timeouts, so that slow-revoke (1) finishes
         * within it, and a revocation during a long enough slow-processing does not: the consumer releases without a
         * commit. Either keeps
         * a partition from its next owner for at most session timeout + 1 s or so: within the stall bound.
         */
        public long revokeTimeoutMs() {
            return 5L * sessionTimeoutMs / 4;
        }

        /**
         * The zkgroups members' {@code max.poll.records}: the most records one poll hands out, a term of the bound on
         * an unclean end's uncommitted window. Set explicitly so that the monitor judges with what the members ran.
         */
        public int maxPollRecords() {
            return MAX_POLL_RECORDS;
        }

        /**
         * The zkgroups members' {@code zkgroups.max.uncommitted.records}: the most records of a partition one of
         * their unclean ends may hand out again, the bound the monitor judges them by.
         */
        public int maxUncommittedRecords() {
            return MAX_UNCOMMITTED_RECORDS;
        }

        /** Every member of the group, zkgroups and 0.8.2.2. */
        public int groupSize() {
            return members + legacyMembers;
        }
    }

    /** The ensemble's servers, ids 1 to 3. */
    public static final int ZOOKEEPER_SERVERS = 3;
    /** How long the faults give the ensemble to elect a leader or to take a server back (~0.3 s when healthy). */
    public static final Duration RECOVERY_TIMEOUT = Duration.ofSeconds(60);

    private final Settings settings;
    private final Journal journal;
    private final ClassData classData;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final List<MemberSlot> slots = new ArrayList<>();
    private TestEnsemble ensemble;
    private KafkaBroker broker;
    private Admin admin;
    private CuratorFramework curator;
    private AckingProducer producer;
    private HealthGate health;
    private String legacyClasspath;
    private int partitions;

    private ChaosCluster(Settings settings, Journal journal, ClassData classData) {
        this.settings = settings;
        this.journal = journal;
        this.classData = classData;
        this.partitions = settings.partitions();
    }

    /** Starts everything and waits until the group is healthy with all its members. */
    public static ChaosCluster start(Settings settings, Journal journal) {
        return start(settings, journal, ClassData.none());
    }

    /**
     * As {@link #start(Settings, Journal)}, every member JVM mapping the class-data archive of its kind, which a
     * training member of each kind in the group writes first ({@link ClassDataTraining}).
     */
    public static ChaosCluster start(Settings settings, Journal journal, ClassData classData) {
        ChaosCluster cluster = new ChaosCluster(settings, journal, classData);
        try {
            cluster.startAll();
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void startAll() {
        Path dir = settings.runDir();
        journal.clock();
        ensemble = startEnsemble(dir.resolve("zk-data"), dir.resolve("stderr"), settings.tickMs(), settings.zooKeeper());
        journal.log("STARTED", "zookeeper " + ensemble.describe());
        broker = KafkaBroker.start(ensemble.connectString(), dir.resolve("kafka-data"), dir.resolve("stderr"), settings.groupSize());
        legacyClasspath = settings.legacyMembers() > 0 ? LegacyClasspath.find() : null;
        journal.log("STARTED", "kafka " + broker.describe());
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000));
        resources.add(() -> admin.close(Duration.ofSeconds(5)));
        curator = CuratorFrameworkFactory.builder().connectString(ensemble.connectString()).sessionTimeoutMs(10_000)
                .retryPolicy(new ExponentialBackoffRetry(100, 10, 1_000)).build();
        curator.start();
        resources.add(curator);
        health = new HealthGate(ensemble.connectString(), settings.group());
        createTopic();
        producer = new AckingProducer(broker.bootstrapServers(), settings.topic(), settings.recordsPerSecond(),
                dir.resolve("acks.log"));
        if (classData.enabled()) {
            new ClassDataTraining(this, classData, legacyClasspath).run();
        }
        for (int s = 0; s < settings.groupSize(); s++) {
            List<TcpProxy> zk = new ArrayList<>();
            for (int id = 1; id <= ZOOKEEPER_SERVERS; id++) {
                zk.add(TcpProxy.start("m" + s + "-zk" + id, ensemble.clientPort(id)));
            }
            String mode = s >= settings.members() ? MemberSlot.LEGACY
                    : s == 0 && settings.brokenMode() != null ? settings.brokenMode() : "correct";
            MemberSlot slot = new MemberSlot(s, zk, broker.memberProxy(s), mode);
            slots.add(slot);
            startMember(slot);
        }
    }

    private void createTopic() {
        try {
            admin.createTopics(List.of(new NewTopic(settings.topic(), settings.partitions(), (short) 1))).all()
                    .get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new ChaosException("cannot create topic " + settings.topic() + ": " + e, e);
        }
        awaitLeaders(settings.partitions());
    }

    private void awaitLeaders(int count) {
        await("every partition of " + settings.topic() + " has a leader").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> admin.describeTopics(List.of(settings.topic())).allTopicNames().get()
                        .get(settings.topic()).partitions().stream()
                        .filter(p -> p.leader() != null && !p.leader().isEmpty()).count() == count);
    }

    /** Starts the slot's next incarnation and waits for its START line. */
    public MemberProcess startMember(MemberSlot slot) {
        return startMember(slot, false);
    }

    /**
     * Launches the slot's next incarnation while the current one still runs, to take over its session: it waits (up to
     * a minute) for the ticket the current one writes when it stops. Returns at once; {@link MemberProcess#awaitTicketWait}
     * waits until it waits, then {@link #takeOver} until it has taken over. Needs hand-over and a zkgroups slot.
     */
    public MemberProcess prestartMember(MemberSlot slot) {
        if (!settings.handover() || slot.legacy()) {
            throw new ChaosException("only a zkgroups slot that restarts by hand-over can start its successor first");
        }
        return startMember(slot, true);
    }

    /** Waits for a prestarted successor's START (it has the session and has subscribed); it is the slot's process now. */
    public MemberProcess takeOver(MemberSlot slot, MemberProcess successor) {
        successor.awaitStart();
        slot.current(successor);
        return successor;
    }

    private MemberProcess startMember(MemberSlot slot, boolean prestart) {
        String name = slot.nextName();
        Map<String, String> props = memberProperties(slot.zookeeperConnect(), broker.memberBootstrap(slot.index()),
                settings.group(), settings.handover() && !slot.legacy() ? slot.stableId() : name, slot.legacy());
        MemberProcess process;
        if (slot.legacy()) {
            process = MemberProcess.startLegacy(name, settings.runDir(), settings.topic(), legacyClasspath,
                    settings.commitIntervalMs(), props, classData.memberOptions(ClassDataTraining.LEGACY));
        } else {
            if (settings.strategy() != null) {
                props.put("partition.assignment.strategy", settings.strategy());
            }
            if (settings.handover()) {
                props.put("zkgroups.restart.handover.file",
                        settings.runDir().resolve("handover").resolve(slot.stableId() + ".ticket").toString());
            }
            if (settings.kafkaOffsets()) {
                props.put("offsets.storage", "kafka");
                props.put("dual.commit.enabled", "true");
            }
            if (prestart) {
                props.put("zkgroups.restart.handover.await.ms", "60000");
            }
            List<String> options = classData.memberOptions(ClassDataTraining.OURS);
            process = prestart ? MemberProcess.spawn(name, settings.runDir(), settings.topic(), slot.currentMode(),
                    settings.commitIntervalMs(), props, options)
                    : MemberProcess.start(name, settings.runDir(), settings.topic(), slot.currentMode(),
                    settings.commitIntervalMs(), props, options);
        }
        journal.log("MEMBER-STARTED", name + " pid " + process.jvm().pid() + " mode " + slot.currentMode());
        if (!prestart) {
            slot.current(process);
        }
        return process;
    }

    /**
     * The properties every member of a kind gets: 0.8.2.2 consumers find the broker in {@code /brokers/ids} (its
     * PLAINTEXT listener); zkgroups members also get the run's revocation timeout, max.poll.records and
     * zkgroups.max.uncommitted.records. The rest (strategy, hand-over,
     * offsets storage) is the slot's.
     */
    Map<String, String> memberProperties(String zookeeperConnect, String bootstrap, String group, String consumerId,
                                         boolean legacy) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("zookeeper.connect", zookeeperConnect);
        props.put("group.id", group);
        props.put("consumer.id", consumerId);
        props.put("auto.offset.reset", "smallest");
        props.put("zookeeper.session.timeout.ms", Integer.toString(settings.sessionTimeoutMs()));
        props.put("rebalance.backoff.ms", "500");
        if (legacy) {
            props.put("rebalance.max.retries", "20");
        } else {
            props.put("bootstrap.servers", bootstrap);
            props.put("metadata.max.age.ms", "2000");
            props.put("zkgroups.revoke.timeout.ms", Long.toString(settings.revokeTimeoutMs()));
            props.put("max.poll.records", Integer.toString(settings.maxPollRecords()));
            props.put("zkgroups.max.uncommitted.records", Integer.toString(settings.maxUncommittedRecords()));
        }
        return props;
    }

    /** Adds partitions to the topic and waits until they have a leader. */
    public void addPartitions(int more) {
        partitions += more;
        try {
            admin.createPartitions(Map.of(settings.topic(), NewPartitions.increaseTo(partitions))).all()
                    .get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new ChaosException("cannot grow " + settings.topic() + " to " + partitions + " partitions: " + e, e);
        }
        awaitLeaders(partitions);
    }

    public Settings settings() {
        return settings;
    }

    public Journal journal() {
        return journal;
    }

    /**
     * Three real ZooKeeper servers, each in its own JVM with its own config and data directory ({@code zk<id>/} below
     * {@code dataRoot}, read back by the monitor), so that one can be SIGKILLed and restarted with its data; every
     * link between two servers through a proxy of that ordered pair. Returns once they have a leader and two followers.
     */
    private static TestEnsemble startEnsemble(Path dataRoot, Path logDir, int tickMs, ZooKeeperServerRelease release) {
        String zkLogLevel = System.getenv().getOrDefault("CHAOS_ZK_LOG_LEVEL", "warn");
        TestEnsemble.Settings ensembleSettings = new TestEnsemble.Settings(ZOOKEEPER_SERVERS, tickMs, 20, 5, 0, null,
                null, List.of()).inDirectory(dataRoot).inChildJvms(logDir, List.of("-Dzookeeper.forceSync=no",
                "-Dzookeeper.jmx.log4j.disable=true",
                // older releases log through log4j 1 (reload4j): the same level, to stderr
                "-Dlog4j.configuration=" + log4jConfig(dataRoot, zkLogLevel).toUri(),
                // CHAOS_ZK_LOG_LEVEL=info shows elections and syncs in stderr/zk*.stderr.log
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=" + zkLogLevel,
                // the tool's simplelogger.properties (on this classpath) quiets ZooKeeper by name
                "-Dorg.slf4j.simpleLogger.log.org.apache.zookeeper=" + zkLogLevel,
                "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS"));
        TestEnsemble ensemble = TestEnsemble.start(release.isCurrent() ? ensembleSettings
                : ensembleSettings.onRelease(release.classpath()));
        try {
            ensemble.awaitQuorum(RECOVERY_TIMEOUT);
        } catch (IllegalStateException e) {
            ensemble.close();
            throw new ChaosException(e.getMessage() + " (stderr/zk*.stderr.log; CHAOS_ZK_LOG_LEVEL=info shows the "
                    + "elections)", e);
        }
        return ensemble;
    }

    private static Path log4jConfig(Path dir, String level) {
        Path file = dir.resolve("log4j.properties");
        try {
            Files.createDirectories(dir);
            Files.writeString(file, String.join("\n",
                    "log4j.rootLogger=" + level.toUpperCase(java.util.Locale.ROOT) + ", err",
                    "log4j.appender.err=org.apache.log4j.ConsoleAppender",
                    "log4j.appender.err.Target=System.err",
                    "log4j.appender.err.layout=org.apache.log4j.PatternLayout",
                    "log4j.appender.err.layout.ConversionPattern=%d{HH:mm:ss.SSS} %-5p %c{1} - %m%n", ""));
            return file;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot write " + file, e);
        }
    }

    public TestEnsemble ensemble() {
        return ensemble;
    }

    public KafkaBroker broker() {
        return broker;
    }

    public Admin admin() {
        return admin;
    }

    /** A Curator client straight to the ensemble (no proxy), for faults that write znodes. */
    public CuratorFramework curator() {
        return curator;
    }

    public AckingProducer producer() {
        return producer;
    }

    public HealthGate health() {
        return health;
    }

    public List<MemberSlot> slots() {
        return slots;
    }

    public int partitions() {
        return partitions;
    }

    /** The number of slots whose current incarnation runs. */
    public int liveMembers() {
        return (int) slots.stream().filter(s -> s.current() != null && s.current().isAlive()).count();
    }

    /** Leaves gracefully with every member, then stops the producer, the broker and the ensemble. */
    public void stopMembers(Duration timeout) {
        for (MemberSlot slot : slots) {
            MemberProcess m = slot.current();
            if (m != null && m.isAlive()) {
                m.jvm().send(m.legacy() ? "shutdown" : "close");
            }
        }
        for (MemberSlot slot : slots) {
            MemberProcess m = slot.current();
            if (m != null && m.isAlive()) {
                try {
                    m.jvm().awaitExit(timeout);
                } catch (ChildJvm.Failure e) {
                    journal.log("NOTE", m.name() + " did not leave within " + timeout + ": SIGKILL");
                    m.jvm().kill();
                }
            }
        }
    }

    @Override
    public void close() {
        for (MemberSlot slot : slots) {
            MemberProcess m = slot.current();
            if (m != null && m.isAlive()) {
                m.jvm().kill();
            }
            slot.close();
        }
        if (producer != null) {
            producer.close();
        }
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception ignored) {
                // closing anyway
            }
        }
        if (broker != null) {
            broker.close();
        }
        if (ensemble != null) {
            ensemble.close();
        }
    }
}
