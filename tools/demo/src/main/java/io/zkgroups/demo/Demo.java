package io.zkgroups.demo;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.testing.LegacyClasspath;
import io.zkgroups.testing.TestZooKeeper;
import io.zkgroups.tool.Main;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * The whole story in one command: an embedded ZooKeeper and Kafka broker, a topic under steady load, a group of
 * zkgroups consumers (and a real 0.8.2.2 consumer when its jars are available), a rolling bounce gated on
 * {@code health --wait}, a kill -9 and its recovery, and the dual-commit migration to Kafka offsets. Every
 * figure it prints is measured; a broken rebalancer or consumer makes it fail with the reason.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Embedded ZooKeeper + Kafka, a live group, a rolling bounce, a kill -9 and a migration.")
public final class Demo implements Callable<Integer> {

    static final String GROUP = "demo-group";
    static final String TOPIC = "demo-orders";
    private static final int SESSION_TIMEOUT_MS = 4_000;

    @Option(names = "--partitions", description = "Partitions of the demo topic (default: ${DEFAULT-VALUE}).")
    int partitions = 12;

    @Option(names = "--members", description = "zkgroups members in the group (default: ${DEFAULT-VALUE}).")
    int members = 3;

    @Option(names = "--duration", description = "How long the group consumes between steps, e.g. 3s (default: ${DEFAULT-VALUE}).",
            converter = DurationConverter.class)
    Duration duration = Duration.ofSeconds(3);

    @Option(names = "--keep", description = "Leave ZooKeeper and Kafka running at the end and print how to connect.")
    boolean keep;

    @Option(names = "--legacy-classpath", description = "Classpath of the kafka 0.8.2.2 consumer driver (bin/zkgroups "
            + "sets it); the demo does not start without it.")
    String legacyClasspath;

    private final PrintStream out = System.out;
    private final Ledger ledger = new Ledger();
    private final List<Member> group = new ArrayList<>();
    private Duration unstable = Duration.ZERO;
    private String zookeeper;
    private String bootstrap;
    private int memberCounter;
    private boolean migrating;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    public static int run(String[] args) {
        return new CommandLine(new Demo()).execute(args);
    }

    @Override
    public Integer call() throws Exception {
        if (partitions < 1 || members < 1) {
            System.err.println("demo: --partitions and --members must be at least 1");
            return 2;
        }
        if (legacyClasspath == null || legacyClasspath.isBlank()) {
            try {
                legacyClasspath = LegacyClasspath.fromProperties().orElseThrow(() -> new IllegalStateException(
                        LegacyClasspath.WHAT + " is not set: run `bin/zkgroups demo` (it builds legacy-driver and sets "
                                + "it), or pass --legacy-classpath"));
            } catch (IllegalStateException e) {
                System.err.println("demo: " + e.getMessage());
                return 2;
            }
        }
        long start = System.nanoTime();
        say("Starting an embedded ZooKeeper and Kafka broker on 127.0.0.1 ...");
        try (TestZooKeeper zk = TestZooKeeper.start();
             EmbeddedKafka broker = EmbeddedKafka.startZooKeeperMode(zk.connectString())) {
            zookeeper = zk.connectString();
            bootstrap = broker.bootstrapServers();
            Thread cleanup = new Thread(() -> stopAll(broker, zk), "demo-cleanup");
            Runtime.getRuntime().addShutdownHook(cleanup);
            say("  ZooKeeper %s, Kafka %s (broker registered in /brokers/ids)", zookeeper, bootstrap);
            broker.createTopic(TOPIC, partitions);
            try {
                try (DemoProducer producer = new DemoProducer(bootstrap, TOPIC, 2, ledger)) {
                    say("Producing to %s (%d partitions), ~200 records/s", TOPIC, partitions);
                    startGroup();
                    consumeFor(duration);
                    rollingBounce("zookeeper");
                    killOne();
                    migrate();
                    consumeFor(duration);
                }
                finish(start);
                if (keep) {
                    keepRunning();
                }
                closeGroup();
            } finally {
                closeGroupQuietly(); // before the servers stop, or members would wait for them
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanup); // the try-with-resources stops the servers
                } catch (IllegalStateException shuttingDown) {
                    // Ctrl-C: the hook is running and does it
                }
            }
        } catch (DemoFailure e) {
            System.err.println("demo FAILED: " + e.getMessage());
            return 1;
        }
        return ledger.lost() == 0 ? 0 : 1;
    }

    // --- steps ----------------------------------------------------------------------------------------

    private void startGroup() {
        heading("A group of " + members + " zkgroups consumers and one real kafka 0.8.2.2 consumer"
                + " joins (range assignment, 0.8.2.2's default)");
        long t0 = System.nanoTime();
        for (int i = 0; i < members; i++) {
            group.add(start(i == members - 1, "zookeeper"));
        }
        group.add(startLegacy("zookeeper"));
        say("  %d members started in %d ms (JVM start-up of the child processes included)", group.size(),
                Duration.ofNanos(System.nanoTime() - t0).toMillis());
        awaitHealthy("the group formed", group.stream().mapToLong(Member::joinStartedNanos).min().orElse(t0));
        describe();
    }

    private void rollingBounce(String storage) {
        heading("Rolling bounce of every member, each step gated on `zkgroups health --expect-members N --wait`"
                + (storage.equals("kafka") ? " (now with offsets.storage=kafka, dual commit)" : ""));
        for (int i = 0; i < group.size(); i++) {
            Member old = group.get(i);
            long t0 = System.nanoTime();
            old.close();
            awaitHealthy("  " + old.name() + " (" + old.kind() + ") left", t0, group.size() - 1);
            Member fresh = old.kind().equals(ChildMember.LEGACY_KIND) ? startLegacy(storage) : start(old.killable(), storage);
            group.set(i, fresh);
            awaitHealthy("  " + fresh.name() + " (" + fresh.kind() + ") joined", joinedAt(fresh));
        }
        describe();
    }

    private void killOne() {
        Member victim = group.stream().filter(m -> m.killable() && m.kind().startsWith("zkgroups")).findFirst()
                .orElseThrow(() -> new DemoFailure("no member runs in its own JVM"));
        heading("kill -9 of " + victim.name() + ": the group waits for its ZooKeeper session to expire ("
                + SESSION_TIMEOUT_MS + " ms), then takes over at the committed offsets");
        long t0 = System.nanoTime();
        victim.kill();
        awaitHealthy("  " + victim.name() + " is gone and its partitions are owned again", t0, group.size() - 1);
        Member fresh = start(true, "zookeeper");
        group.set(group.indexOf(victim), fresh);
        awaitHealthy("  " + fresh.name() + " joined in its place", joinedAt(fresh));
    }

    private void migrate() {
        heading("Migration of the group's offsets from ZooKeeper to Kafka (dual commit)");
        say("Step 1 of the runbook: copy the offsets to Kafka, then a rolling bounce to offsets.storage=kafka with dual commit");
        cli("migrate", "plan", "--group", GROUP);
        requireCli("migrate execute", 0, "migrate", "execute", "--group", GROUP);
        migrating = true;
        rollingBounce("kafka");
        migrating = false;
        long t0 = System.nanoTime();
        awaitHealthy("every member dual-commits: ZooKeeper and Kafka offsets agree", t0);
        say("Every member now commits to Kafka and ZooKeeper and reads the larger of the two (the group is live: the"
                + " ZooKeeper half of a dual commit lands just after the Kafka half, so verify allows one interval's records):");
        requireCli("migrate verify", 0, "migrate", "verify", "--group", GROUP, "--tolerance", "200");
    }

    private void finish(long start) {
        heading("Draining: the producer stopped, waiting until every record is consumed");
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (ledger.lost() > 0 && System.nanoTime() < deadline) {
            consumeFor(Duration.ofMillis(500));
        }
        describe();
        heading("Summary");
        table(List.of(
                new String[] {"records produced", Long.toString(ledger.produced())},
                new String[] {"records consumed (distinct)", Long.toString(ledger.distinctDelivered())},
                new String[] {"deliveries", Long.toString(ledger.deliveries())},
                new String[] {"deliveries by kafka 0.8.2.2", Long.toString(ledger.deliveriesBy(ChildMember.LEGACY_KIND))},
                new String[] {"duplicates", ledger.duplicates() + " (re-deliveries since a killed member's last commit)"},
                new String[] {"lost", Long.toString(ledger.lost())},
                new String[] {"time the group was unstable", "at most " + unstable.toMillis()
                        + " ms (summed over the steps: until `health --wait` passed)"},
                new String[] {"total demo time", Duration.ofNanos(System.nanoTime() - start).toSeconds() + " s"}));
        if (ledger.lost() > 0) {
            throw new DemoFailure(ledger.lost() + " records were produced but never consumed");
        }
        say("No record was lost.");
    }

    // --- members ------------------------------------------------------------------------------------------

    /** When the member's join began: after a zkgroups child JVM has booted, since the group was stable until then. */
    private static long joinedAt(Member member) {
        return member.joinStartedNanos();
    }

    private Member start(boolean ownJvm, String storage) {
        String name = "member-" + (++memberCounter);
        Properties props = memberProperties(name, storage);
        if (ownJvm) {
            return ChildMember.zkgroups(name, props, TOPIC, ledger).awaitReady(60);
        }
        return new InJvmMember(name, props, TOPIC, ledger);
    }

    private Member startLegacy(String storage) {
        String name = "legacy-" + (++memberCounter);
        Properties props = memberProperties(name, storage);
        props.setProperty("rebalance.backoff.ms", "500");
        props.setProperty("rebalance.max.retries", "40");
        return ChildMember.legacy(name, props, TOPIC, ledger, legacyClasspath).awaitReady(90);
    }

    private Properties memberProperties(String name, String storage) {
        Properties props = new Properties();
        props.setProperty("zookeeper.connect", zookeeper);
        props.setProperty("group.id", GROUP);
        props.setProperty("consumer.id", name);
        props.setProperty("auto.offset.reset", "smallest");
        props.setProperty("auto.commit.interval.ms", "500");
        props.setProperty("zookeeper.session.timeout.ms", Integer.toString(SESSION_TIMEOUT_MS));
        props.setProperty("offsets.storage", storage);
        if (storage.equals("kafka")) {
            props.setProperty("dual.commit.enabled", "true");
        }
        return props;
    }

    private void closeGroup() {
        for (Member m : group) {
            m.close();
        }
        group.clear();
    }

    private void closeGroupQuietly() {
        for (Member m : group) {
            try {
                m.close();
            } catch (RuntimeException ignored) {
                // already failing: the first error is the one that matters
            }
        }
        group.clear();
    }

    // --- the CLI, in-process --------------------------------------------------------------------------------

    private void awaitHealthy(String what, long sinceNanos) {
        awaitHealthy(what, sinceNanos, group.size());
    }

    private void awaitHealthy(String what, long sinceNanos, int expected) {
        List<String> args = new ArrayList<>(List.of("health", "--group", GROUP, "--expect-members", Integer.toString(expected), "--wait", "90s"));
        if (migrating) {
            args.add("--no-store-check"); // mid-bounce some members still commit only to ZooKeeper: the stores differ
        }
        int code = cliQuiet(args.toArray(String[]::new));
        Duration took = Duration.ofNanos(System.nanoTime() - sinceNanos);
        if (code != 0) {
            cli("health", "--group", GROUP, "--expect-members", Integer.toString(expected));
            throw new DemoFailure(what + ", but the group did not become healthy within 90 s (health exit code " + code + ")");
        }
        unstable = unstable.plus(took);
        say("%s; group stable and complete again after %d ms", what, took.toMillis());
    }

    private void describe() {
        cli("groups", "describe", "--group", GROUP);
    }

    private int cli(String... args) {
        return Main.run(withConnection(args), out, System.err);
    }

    private int cliQuiet(String... args) {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        return Main.run(withConnection(args), new PrintStream(sink, true, StandardCharsets.UTF_8), new PrintStream(sink, true, StandardCharsets.UTF_8));
    }

    private void requireCli(String what, int expected, String... args) {
        int code = cli(args);
        if (code != expected) {
            throw new DemoFailure("`zkgroups " + what + "` exited with " + code + ", expected " + expected);
        }
    }

    private String[] withConnection(String[] args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--zookeeper");
        all.add(zookeeper);
        all.add("--bootstrap-server");
        all.add(bootstrap);
        return all.toArray(String[]::new);
    }

    // --- output -----------------------------------------------------------------------------------------------

    private void consumeFor(Duration time) {
        CountDownLatch never = new CountDownLatch(1);
        try {
            never.await(time.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS); // let the group work; nothing to wait for
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void heading(String text) {
        out.println();
        out.println("== " + text);
    }

    private void say(String format, Object... args) {
        out.println(args.length == 0 ? format : String.format(format, args));
    }

    private void table(List<String[]> rows) {
        int width = rows.stream().mapToInt(r -> r[0].length()).max().orElse(0);
        for (String[] row : rows) {
            out.printf("  %-" + width + "s  %s%n", row[0], row[1]);
        }
    }

    private void keepRunning() throws InterruptedException {
        heading("Servers left running (--keep); press Ctrl-C to stop");
        say("  bin/zkgroups groups describe --group %s --zookeeper %s --bootstrap-server %s", GROUP, zookeeper, bootstrap);
        new CountDownLatch(1).await();
    }

    private void stopAll(EmbeddedKafka broker, TestZooKeeper zk) {
        closeGroupQuietly();
        broker.close();
        zk.close();
    }

    /** Parses 3s, 500ms, 2m or ISO-8601 (PT3S). */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String v = value.trim().toLowerCase(java.util.Locale.ROOT);
            if (v.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            }
            if (v.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
            }
            if (v.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
            }
            return Duration.parse(value);
        }
    }
}
