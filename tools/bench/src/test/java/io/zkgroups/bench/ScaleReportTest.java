package io.zkgroups.bench;

import io.zkgroups.bench.BenchOptionTypes.GroupSize;
import org.junit.jupiter.api.Test;

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
}
