package io.zkgroups.bench;

import io.zkgroups.bench.ThroughputBench.Run;
import io.zkgroups.bench.ThroughputBench.Shape;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The throughput bench's pure parts: shapes and the report's arithmetic. */
class ThroughputBenchTest {

    @Test
    void aShapeIsBytesPartitionsMembersAndEveryMemberGetsAnEqualShare() {
        assertThat(Shape.parse("1000x128x4", 512_000)).isEqualTo(new Shape(1000, 128, 4, 512_000));
        assertThatThrownBy(() -> Shape.parse("100x16x3", 1_600)).hasMessageContaining("equal share");
        assertThatThrownBy(() -> Shape.parse("100x16x1", 1_601)).hasMessageContaining("equal share");
        assertThatThrownBy(() -> Shape.parse("100x16", 1_600)).hasMessageContaining("BYTESxPARTITIONSxMEMBERS");
    }

    @Test
    void theReportGivesMediansAgainstTheFirstReader() {
        Map<String, List<Run>> runs = new LinkedHashMap<>();
        // 1,000,000 records in 1 s, 2 s, 4 s: median 500,000/s
        runs.put("legacy", List.of(run(1.0), run(2.0), run(4.0)));
        runs.put("ours", List.of(run(0.5), run(1.0), run(8.0)));

        String table = ThroughputReport.table("shape", 1_000_000, runs);

        assertThat(table).contains("| legacy | 500,000 (1,000,000, 500,000, 250,000) | 1.00 |");
        assertThat(table).contains("| ours | 1,000,000 (2,000,000, 1,000,000, 125,000) | 2.00 |");
        assertThat(table).as("start to last, CPU-s per million, peak MiB, most read twice")
                .contains("| 1.00 | 3.00 | 2.00 | 200 | 4 |");
    }

    @Test
    void coverageFindsRecordsNobodyReadAndCountsThoseReadTwice() {
        // partition 0 read by two members with an overlap of 10; partition 1 misses 40-50 and its tail
        ReadCoverage coverage = ReadCoverage.of(2, 100, Map.of(
                0, List.of(new long[] {50, 100}, new long[] {0, 60}),
                1, List.of(new long[] {0, 40}, new long[] {50, 90})));

        assertThat(coverage.complete()).isFalse();
        assertThat(coverage.describeMissing()).isEqualTo("partition 1: 40-50 90-100");
        assertThat(coverage.readTwice()).isEqualTo(10);
        assertThat(ReadCoverage.of(1, 100, Map.of(0, List.of(new long[] {0, 100}))).complete()).isTrue();
        assertThat(ReadCoverage.of(2, 100, Map.of(0, List.of(new long[] {0, 100}))).describeMissing())
                .as("a partition nobody read at all").isEqualTo("partition 1: 0-100");
    }

    private static Run run(double seconds) {
        long nanos = (long) (seconds * 1e9);
        return new Run(nanos, nanos + 1_000_000_000L, 2_000_000_000L, 200 * 1024, (long) seconds);
    }
}
