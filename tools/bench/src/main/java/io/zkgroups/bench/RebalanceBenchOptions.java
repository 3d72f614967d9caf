package io.zkgroups.bench;

import io.zkgroups.bench.BenchOptionTypes.GroupSize;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The options of {@link RebalanceBench}: what it measures (sizes, implementations, modes) and how often. */
@Command(name = "RebalanceBench", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Rebalance latency of N members x P partitions, every member in its own JVM.")
final class RebalanceBenchOptions {

    /** The implementation a member runs. */
    enum Impl {
        OURS, LEGACY;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Cold: every member a fresh JVM; warm: member JVMs first run two-member rebalances. */
    enum Mode {
        COLD, WARM;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    static final class ImplConverter extends BenchOptionTypes.LowerCaseEnumConverter<Impl> {
        ImplConverter() {
            super(Impl.class);
        }
    }

    static final class ModeConverter extends BenchOptionTypes.LowerCaseEnumConverter<Mode> {
        ModeConverter() {
            super(Mode.class);
        }
    }

    @Option(names = "--sizes", split = ",", defaultValue = "4x16,10x100", paramLabel = "MxP",
            converter = BenchOptionTypes.GroupSizeConverter.class,
            description = "Group sizes, members x partitions (default: ${DEFAULT-VALUE}).")
    List<GroupSize> sizes;

    @Option(names = "--impl", split = ",", defaultValue = "ours", paramLabel = "IMPL", converter = ImplConverter.class,
            description = "ours (zkgroups), legacy (0.8.2.2), or both (default: ${DEFAULT-VALUE}).")
    Set<Impl> impls;

    @Option(names = "--modes", split = ",", defaultValue = "cold", paramLabel = "MODE", converter = ModeConverter.class,
            description = "cold, warm, or both (default: ${DEFAULT-VALUE}).")
    Set<Mode> modes;

    @Option(names = "--cold-reps", description = "Cold: join, leave and kill repetitions (default: ${DEFAULT-VALUE}).")
    int coldReps = 5;

    @Option(names = "--cold-burst-reps", description = "Cold: burst repetitions (default: ${DEFAULT-VALUE}).")
    int coldBurstReps = 3;

    @Option(names = "--reps", description = "Warm: join/leave repetitions (default: ${DEFAULT-VALUE}).")
    int reps = 10;

    @Option(names = "--kill-reps", description = "Warm: kill repetitions (default: ${DEFAULT-VALUE}).")
    int killReps = 5;

    @Option(names = "--burst-reps", description = "Warm: burst repetitions (default: ${DEFAULT-VALUE}).")
    int burstReps = 5;

    @Option(names = "--legacy-reps", description = "Warm, 0.8.2.2: join/leave repetitions (default: ${DEFAULT-VALUE}).")
    int legacyReps = 3;

    @Option(names = "--legacy-burst-reps",
            description = "Warm, 0.8.2.2: burst repetitions (default: ${DEFAULT-VALUE}).")
    int legacyBurstReps = 3;

    @Option(names = "--session-ms", description = "Session timeout of zkgroups members (default: ${DEFAULT-VALUE}).")
    int sessionMs = 2_000;

    @Option(names = "--legacy-session-ms",
            description = "Session timeout of 0.8.2.2 consumers (default: --session-ms, so kill -9 compares alike).")
    Integer legacySessionMs;

    @Option(names = "--debounce-ms", description = "zkgroups members' rebalance debounce (default: ${DEFAULT-VALUE}).")
    long debounceMs = 5;

    @Option(names = "--warmup-rounds", description = "Warm: two-member rebalances each member JVM runs first "
            + "(default: ${DEFAULT-VALUE}).")
    int warmUpRounds = 150;

    /** Strategy, and 0.8.2.2's backoff, retries and classpath. */
    @Mixin
    GroupProtocolOptions protocol = new GroupProtocolOptions();

    /** The session timeout of 0.8.2.2 consumers: {@code --legacy-session-ms}, else {@code --session-ms}. */
    int legacySessionMs() {
        return legacySessionMs != null ? legacySessionMs : sessionMs;
    }

    /** Ours first, then 0.8.2.2: the order of the report. */
    List<Impl> implOrder() {
        return List.of(Impl.values()).stream().filter(impls::contains).toList();
    }
}
