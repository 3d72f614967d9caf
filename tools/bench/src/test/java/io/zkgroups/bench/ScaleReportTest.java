package io.zkgroups.bench;

import io.zkgroups.bench.BenchOptionTypes.GroupSize;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.DoubleStream;

import static org.assertj.core.api.Assertions.assertThat;

class ScaleReportTest {

    private static List<ScaleReport.Sample> runs(double... millis) {
        return DoubleStream.of(millis).mapToObj(ms -> new ScaleReport.Sample("ours", new GroupSize(10, 100), "burst", ms,
                0, 0, 0, 0, 0, 0, 0, -1)).collect(Collectors.toList());
    }

    @Test
    void theMedianOfAnOddNumberOfRunsIsTheMiddleOne() {
        assertThat(ScaleReport.median(runs(900, 100, 500), ScaleReport.Sample::millis)).isEqualTo(500);
    }

    @Test
    void theMedianOfAnEvenNumberOfRunsIsTheMeanOfTheTwoMiddleOnes() {
        assertThat(ScaleReport.median(runs(4343, 4257), ScaleReport.Sample::millis)).isEqualTo(4300);
        assertThat(ScaleReport.median(runs(1, 7, 3, 100), ScaleReport.Sample::millis)).isEqualTo(5);
    }

    @Test
    void theBurstGoalIsTheMedianTimeAfterEachRunsLastRegistrationBesideTheJoinAndItsFloor() {
        GroupSize size = new GroupSize(1000, 10000);
        List<ScaleReport.Sample> samples = List.of(
                new ScaleReport.Sample("ours", size, "burst (from first process start)", 40_000, 0, 0, 0, 0, 0, 0, 0, 15_000),
                new ScaleReport.Sample("ours", size, "burst (from first process start)", 38_000, 0, 0, 0, 0, 0, 0, 0, 16_000),
                new ScaleReport.Sample("ours", size, "join", 1_500, 0, 0, 0, 0, 0, 2_800, 0, -1),
                new ScaleReport.Sample(ScaleReport.HEAR_FLOOR, size, "floor: every session reads a join", 250, 0, 0, 0,
                        0, 0, 440, 0, -1));
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        new ScaleReport(samples, List.of()).print(new PrintStream(out, true, StandardCharsets.UTF_8));

        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("burst stable 23500 ms after the last registration (≤ 20000), 39000 ms from the first")
                .contains("join 1500 ms (≤ 1000), 2800 CPU ms of the members; every session only reading it: 250 ms,"
                        + " 440 CPU ms");
    }
}
