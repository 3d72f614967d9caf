package io.zkgroups.chaos.run;

import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.chaos.cluster.ZooKeeperServerRelease;
import io.zkgroups.chaos.fault.Fault;
import io.zkgroups.chaos.fault.FaultCatalog;
import io.zkgroups.chaos.member.MemberMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code tools/bench/chaos.sh}: a seeded chaos run from the command line. Exit 0: no violation; 1: violations; 2: bad usage. */
@Command(name = "chaos", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Seeded fault injection against a 3-server ZooKeeper ensemble, a Kafka broker and ZkGroupConsumer "
                + "members in separate JVMs, then an invariant check over what they logged.")
public final class ChaosMain implements Callable<Integer> {

    @Option(names = "--faults", description = "Faults to inject (default: ${DEFAULT-VALUE}).")
    int faults = 10;

    @Option(names = "--seed", description = "Seed of the fault sequence (default: the clock; printed).")
    Long seed;

    @Option(names = "--fault-set", description = "Comma-separated fault names, or 'all' (default: ${DEFAULT-VALUE}). See --list-faults.")
    String faultSet = "all";

    @Option(names = "--cycle", description = "Inject the faults of the set in turn instead of drawing them.")
    boolean cycle;

    @Option(names = "--members", description = "Member JVMs (default: ${DEFAULT-VALUE}).")
    int members = 3;

    @Option(names = "--legacy-members", description = "Real kafka 0.8.2.2 consumers in the group besides (default: ${DEFAULT-VALUE}).")
    int legacyMembers = 0;

    @Option(names = "--partitions", description = "Initial partitions of the topic (default: ${DEFAULT-VALUE}).")
    int partitions = 6;

    @Option(names = "--rate", description = "Records per second produced (default: ${DEFAULT-VALUE}).")
    int rate = 100;

    @Option(names = "--session-ms", description = "Members' zookeeper.session.timeout.ms (default: ${DEFAULT-VALUE}).")
    int sessionMs = 4000;

    @Option(names = "--commit-interval-ms", description = "How often members commit (default: ${DEFAULT-VALUE}).")
    long commitIntervalMs = 250;

    @Option(names = "--offsets-storage", description = "Where the zkgroups members store offsets: zookeeper, or kafka "
            + "(offsets.storage=kafka with dual.commit.enabled=true) (default: ${DEFAULT-VALUE}).")
    String offsetsStorage = "zookeeper";

    @Option(names = "--slow-processing-ms", description = "How long slow-processing's batch takes (default: 1.5 session "
            + "timeouts; 10000 makes its revocation outlast the revoke timeout).")
    Long slowProcessingMs;

    @Option(names = "--broken-member", description = "Run member slot 0's first process broken on purpose: ignore-loss, stale-commit, lazy-commit or stall.")
    String brokenMember;

    @Option(names = "--health-timeout", description = "How long the group may take to be healthy after a fault, e.g. 60s (default: ${DEFAULT-VALUE}s).")
    long healthTimeoutSeconds = 90;

    @Option(names = "--stall-bound", description = "Longest allowed time with a backlog and no hand-out, in seconds "
            + "(default: the session timeout plus one rebalance, 8 s: 0.8.2.2's rebalance.max.retries x rebalance.backoff.ms).")
    Long stallBoundSeconds;

    @Option(names = "--zookeeper-classpath", paramLabel = "FILE", description = "Run the ensemble on an older ZooKeeper "
            + "release: a file holding its server classpath, e.g. servers/zookeeper-3.4/target/classpath.txt "
            + "(default: the tool's own ZooKeeper).")
    private Path zooKeeperClasspath;

    @Option(names = "--out", description = "Run directory (default: tools/chaos/target/chaos-runs/<time>-seed<seed>).")
    Path out;

    @Option(names = "--analyze", paramLabel = "RUN_DIR", description = "Only check the invariants over an existing run directory.")
    Path analyze;

    @Option(names = "--list-faults", description = "Print the faults and exit.")
    boolean listFaults;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ChaosMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (listFaults) {
            FaultCatalog.all().forEach(f -> System.out.printf("%-18s %s%n", f.name(), f.description()));
            return 0;
        }
        if (analyze != null) {
            ChaosRunner.Result result = ChaosRunner.analyze(analyze.toAbsolutePath(),
                    stallBoundSeconds == null ? null : Duration.ofSeconds(stallBoundSeconds));
            System.out.print(result.table());
            return result.verdict().passed() ? 0 : 1;
        }
        List<Fault> set;
        try {
            set = FaultCatalog.parse(faultSet);
            if (brokenMember != null) {
                MemberMode.parse(brokenMember);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("chaos: " + e.getMessage());
            return 2;
        }
        if (members < 0 || legacyMembers < 0 || members + legacyMembers < 2 || partitions < 1 || faults < 0 || rate < 1) {
            System.err.println("chaos: --members plus --legacy-members must be at least 2 (neither negative), "
                    + "--partitions and --rate at least 1");
            return 2;
        }
        if (brokenMember != null && members < 1) {
            System.err.println("chaos: --broken-member runs zkgroups member slot 0: it needs --members 1 or more");
            return 2;
        }
        if (!offsetsStorage.equals("zookeeper") && !offsetsStorage.equals("kafka")) {
            System.err.println("chaos: --offsets-storage must be zookeeper or kafka, not '" + offsetsStorage + "'");
            return 2;
        }
        long s = seed != null ? seed : System.nanoTime() & 0xffffffL;
        Path dir = out != null ? out : Path.of("tools", "chaos", "target", "chaos-runs",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-seed" + s);
        System.out.println("chaos: seed " + s + ", " + faults + " faults, run directory " + dir.toAbsolutePath());
        ChaosCluster.Settings settings = new ChaosCluster.Settings(dir.toAbsolutePath(), "chaos", "chaos-t", partitions,
                members, legacyMembers, rate, sessionMs, commitIntervalMs, brokenMember, 500, offsetsStorage.equals("kafka"),
                slowProcessingMs != null ? slowProcessingMs : 3L * sessionMs / 2);
        if (zooKeeperClasspath != null) {
            try {
                settings = settings.withZooKeeper(ZooKeeperServerRelease.fromClasspathFile(zooKeeperClasspath));
            } catch (IllegalArgumentException e) {
                System.err.println("chaos: --zookeeper-classpath: " + e.getMessage());
                return 2;
            }
        }
        ChaosRunner.Result result = ChaosRunner.run(new ChaosRunner.Options(settings, set, faults, s, cycle,
                Duration.ofSeconds(healthTimeoutSeconds), Duration.ZERO, stallBoundSeconds == null
                ? ChaosRunner.defaultStallBound(sessionMs) : Duration.ofSeconds(stallBoundSeconds), true));
        System.out.println();
        System.out.print(result.table());
        return result.verdict().passed() ? 0 : 1;
    }
}
