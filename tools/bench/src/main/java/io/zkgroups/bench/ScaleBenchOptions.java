package io.zkgroups.bench;

import io.zkgroups.bench.BenchOptionTypes.GroupSize;
import io.zkgroups.bench.RebalanceBenchOptions.Impl;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** The options of {@link ScaleBench}: the sizes of the curve, the implementations, how many members share a JVM. */
@Command(name = "ScaleBench", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Coordination cost of N members x P partitions, several members (sessions) per JVM.")
final class ScaleBenchOptions {

    @Option(names = "--sizes", split = ",", defaultValue = "10x100,100x1000,1000x10000", paramLabel = "MxP",
            converter = BenchOptionTypes.GroupSizeConverter.class,
            description = "Group sizes, members x partitions (default: ${DEFAULT-VALUE}).")
    List<GroupSize> sizes;

    @Option(names = "--impl", split = ",", defaultValue = "ours,legacy", paramLabel = "IMPL",
            converter = RebalanceBenchOptions.ImplConverter.class,
            description = "ours (zkgroups), legacy (0.8.2.2), or both (default: ${DEFAULT-VALUE}).")
    Set<Impl> impls;

    @Option(names = "--reps", description = "Runs of each size (a fresh group each: burst, join, leave, kill -9) "
            + "(default: ${DEFAULT-VALUE}).")
    int reps = 3;

    @Option(names = "--members-per-jvm", description = "Members (each its own ZooKeeper session) hosted by one JVM "
            + "(default: ${DEFAULT-VALUE}).")
    int membersPerJvm = 50;

    @Option(names = "--session-ms", description = "Session timeout of every member (default: ${DEFAULT-VALUE}).")
    int sessionMs = 6_000;

    @Option(names = "--wait-s", description = "How long a scenario may take to converge (default: ${DEFAULT-VALUE}).")
    int waitSeconds = 180;

    @Option(names = "--plot", paramLabel = "PNG", description = "Where the plot goes (default: ${DEFAULT-VALUE}).")
    Path plot = Path.of("tools", "bench", "target", "scaling.png");

    @Option(names = "--debounce-ms", description = "zkgroups members' rebalance debounce (default: ${DEFAULT-VALUE}).")
    long debounceMs = 0;

    @Option(names = "--pad-names", description = "Zero-pad member numbers (m0001..m1000): the joiner, numbered N+1, "
            + "then sorts after every member, so range moves only the last members' partitions; without it the "
            + "joiner (m1001 after m1000) sorts near the front and range moves nearly every member's.")
    boolean padNames;

    /** Strategy, and 0.8.2.2's backoff, retries and classpath. */
    @Mixin
    GroupProtocolOptions protocol = new GroupProtocolOptions();
}
