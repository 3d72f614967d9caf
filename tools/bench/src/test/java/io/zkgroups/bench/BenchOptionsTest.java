package io.zkgroups.bench;

import io.zkgroups.bench.BenchOptionTypes.GroupSize;
import io.zkgroups.bench.RebalanceBenchOptions.Impl;
import io.zkgroups.bench.RebalanceBenchOptions.Mode;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParameterException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The benchmarks' option classes: the defaults they documented before picocli, and errors that name the option. */
class BenchOptionsTest {

    @Test
    void rebalanceBenchDefaultsToColdRoundsOfOursAtTwoSizes() {
        RebalanceBenchOptions options = BenchCommand.parseOrThrow(new RebalanceBenchOptions());

        assertThat(options.sizes).containsExactly(new GroupSize(4, 16), new GroupSize(10, 100));
        assertThat(options.impls).containsExactly(Impl.OURS);
        assertThat(options.modes).containsExactly(Mode.COLD);
        assertThat(options.coldReps).isEqualTo(5);
        assertThat(options.protocol.strategy).isEqualTo("range");
        assertThat(options.protocol.legacyClasspath).isNull();
    }

    @Test
    void legacySessionFollowsTheSessionUnlessGiven() {
        assertThat(BenchCommand.parseOrThrow(new RebalanceBenchOptions(), "--session-ms", "6000").legacySessionMs())
                .isEqualTo(6000);
        assertThat(BenchCommand.parseOrThrow(new RebalanceBenchOptions(), "--session-ms", "6000",
                "--legacy-session-ms", "30000").legacySessionMs()).isEqualTo(30000);
    }

    @Test
    void rebalanceBenchReadsListsAndReportsOursFirst() {
        RebalanceBenchOptions options = BenchCommand.parseOrThrow(new RebalanceBenchOptions(),
                "--sizes", "2x8", "--impl", "legacy,ours", "--modes", "cold,warm", "--strategy", "sticky");

        assertThat(options.sizes).containsExactly(new GroupSize(2, 8));
        assertThat(options.implOrder()).containsExactly(Impl.OURS, Impl.LEGACY);
        assertThat(options.modes).containsExactlyInAnyOrder(Mode.COLD, Mode.WARM);
        assertThat(options.protocol.strategy).isEqualTo("sticky");
    }

    @Test
    void badValuesAreErrorsThatNameTheOption() {
        assertThatThrownBy(() -> BenchCommand.parseOrThrow(new RebalanceBenchOptions(), "--sizes", "4y16"))
                .isInstanceOf(ParameterException.class).hasMessageContaining("--sizes").hasMessageContaining("4y16");
        assertThatThrownBy(() -> BenchCommand.parseOrThrow(new RebalanceBenchOptions(), "--impl", "ours,kafka"))
                .isInstanceOf(ParameterException.class).hasMessageContaining("--impl")
                .hasMessageContaining("expected one of ours, legacy, got 'kafka'");
        assertThatThrownBy(() -> BenchCommand.parseOrThrow(new AssignmentCostBench.Options(), "--strategy", "Range"))
                .isInstanceOf(ParameterException.class).hasMessageContaining("--strategy")
                .hasMessageContaining("Range");
        assertThatThrownBy(() -> BenchCommand.parseOrThrow(new ConsumerThroughputBench.Options(),
                "--raw-defaults", "2"))
                .isInstanceOf(ParameterException.class).hasMessageContaining("--raw-defaults");
        assertThatThrownBy(() -> BenchCommand.parseOrThrow(new MigrateBench.Options(), "--groups", "many"))
                .isInstanceOf(ParameterException.class).hasMessageContaining("--groups").hasMessageContaining("many");
    }

    @Test
    void unknownOptionsAreErrorsThatNameThem() {
        assertThatThrownBy(() -> BenchCommand.parseOrThrow(new OffsetCommitBench.Options(), "--topic", "5"))
                .isInstanceOf(ParameterException.class).hasMessageContaining("--topic");
        assertThatThrownBy(() -> BenchCommand.parseOrThrow(new ExporterBench.Options(), "--scrape", "3"))
                .isInstanceOf(ParameterException.class).hasMessageContaining("--scrape");
        assertThatThrownBy(() -> BenchCommand.parseOrThrow(new AssignmentCostBench.Options(), "10", "100"))
                .isInstanceOf(ParameterException.class).hasMessageContaining("10");
    }

    @Test
    void consumerThroughputCountsMayBeWrittenWithUnderscores() {
        ConsumerThroughputBench.Options options = BenchCommand.parseOrThrow(new ConsumerThroughputBench.Options(),
                "--records", "2_000_000", "--raw-defaults", "1");

        assertThat(options.records).isEqualTo(2_000_000);
        assertThat(options.rawDefaults).isEqualTo(1);
        assertThat(options.partitions).isEqualTo(16);
        assertThat(BenchCommand.parseOrThrow(new ConsumerThroughputBench.Options()).rawDefaults).isZero();
    }

    @Test
    void countsKeepTheirDefaults() {
        MigrateBench.Options migrate = BenchCommand.parseOrThrow(new MigrateBench.Options());
        assertThat(new int[] {migrate.groups, migrate.partitions, migrate.parallelism, migrate.batchSize})
                .containsExactly(1000, 50, 8, 50);
        ExporterBench.Options exporter = BenchCommand.parseOrThrow(new ExporterBench.Options());
        assertThat(new int[] {exporter.groups, exporter.partitions, exporter.scrapes}).containsExactly(1000, 50, 7);
        OffsetCommitBench.Options commit = BenchCommand.parseOrThrow(new OffsetCommitBench.Options());
        assertThat(new int[] {commit.topics, commit.partitions, commit.rounds, commit.warmup, commit.batch})
                .containsExactly(20, 500, 15, 3, 1000);
        AssignmentCostBench.Options cost = BenchCommand.parseOrThrow(new AssignmentCostBench.Options());
        assertThat(new int[] {cost.members, cost.partitions, cost.rounds, cost.calls}).containsExactly(10, 100, 10, 50);
    }
}
