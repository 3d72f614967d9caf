package io.zkgroups.tool.lag;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LagEvaluatorTest {

    private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
    private static final Duration IDLE = Duration.ofSeconds(60);

    /** Samples 10 s apart: {offset, logEnd} pairs, log start 0, committed when first seen, owned or not. */
    private static List<PartitionSample> window(boolean owned, long[]... offsetAndEnd) {
        List<PartitionSample> samples = new ArrayList<>();
        for (int i = 0; i < offsetAndEnd.length; i++) {
            samples.add(new PartitionSample(T0.plusSeconds(10L * i), offsetAndEnd[i][0], null, 0, offsetAndEnd[i][1], owned));
        }
        return samples;
    }

    private static long[] s(long offset, long logEnd) {
        return new long[]{offset, logEnd};
    }

    private static LagStatus status(List<PartitionSample> window) {
        return LagEvaluator.evaluate(window, IDLE).status();
    }

    @Test
    void aGroupThatCaughtUpAnywhereInTheWindowIsOk() {
        assertThat(status(window(true, s(10, 10), s(10, 50), s(10, 90)))).isEqualTo(LagStatus.OK);
        LagEvaluator.Verdict now = LagEvaluator.evaluate(window(true, s(5, 10), s(10, 10)), IDLE);
        assertThat(now.status()).isEqualTo(LagStatus.OK);
        assertThat(now.lag()).isZero();
    }

    @Test
    void anOffsetBehindTheLogStartIsAnErrorWhateverElseHolds() {
        List<PartitionSample> lost = List.of(new PartitionSample(T0, 5L, null, 20, 30, true));
        LagEvaluator.Verdict v = LagEvaluator.evaluate(lost, IDLE);
        assertThat(v.status()).isEqualTo(LagStatus.ERR);
        assertThat(v.reason()).contains("15 records were deleted");
        assertThat(v.lag()).isEqualTo(25);
    }

    @Test
    void anOffsetThatMovedBackIsARewind() {
        assertThat(status(window(true, s(50, 100), s(40, 100), s(45, 100)))).isEqualTo(LagStatus.REWIND);
    }

    @Test
    void anUnmovedOffsetWithBacklogIsStoppedWithoutAnOwnerAndStalledWithOne() {
        long[][] idle = {s(10, 100), s(10, 110), s(10, 120), s(10, 130), s(10, 140), s(10, 150), s(10, 160), s(10, 170)};
        assertThat(status(window(false, idle))).as("70 s unchanged, nobody owns it").isEqualTo(LagStatus.STOP);
        assertThat(status(window(true, idle))).as("70 s unchanged, a live member holds it").isEqualTo(LagStatus.STALL);
    }

    @Test
    void anUnmovedOffsetIsNotJudgedBeforeTheIdleTimeUnlessTheStoreSaysWhenItWasCommitted() {
        List<PartitionSample> young = window(false, s(10, 100), s(10, 110), s(10, 120));
        assertThat(status(young)).as("20 s unchanged").isEqualTo(LagStatus.OK);
        List<PartitionSample> withMtime = new ArrayList<>();
        for (PartitionSample p : young) {
            withMtime.add(new PartitionSample(p.at(), p.offset(), T0.minusSeconds(300), p.logStart(), p.logEnd(), p.owned()));
        }
        LagEvaluator.Verdict v = LagEvaluator.evaluate(withMtime, IDLE);
        assertThat(v.status()).as("the ZooKeeper mtime says 320 s").isEqualTo(LagStatus.STOP);
        assertThat(v.reason()).contains("unchanged for 320 s");
    }

    @Test
    void aMovingOffsetWhoseLagGrowsAtEveryCommitIsAWarning() {
        // commits at samples 0, 2, 4: lag there 20, 40, 60; between commits the lag rises as the log grows
        assertThat(status(window(true, s(100, 120), s(100, 135), s(110, 150), s(110, 160), s(120, 180))))
                .isEqualTo(LagStatus.WARN);
    }

    @Test
    void aMovingOffsetWhoseLagShrinksSomewhereIsOk() {
        assertThat(status(window(true, s(100, 120), s(110, 140), s(150, 160), s(160, 190)))).isEqualTo(LagStatus.OK);
        assertThat(status(window(true, s(100, 120), s(110, 130)))).as("constant lag: keeping pace").isEqualTo(LagStatus.OK);
    }

    @Test
    void samplesWithoutAnOffsetAreSkippedButTheNewestMustHaveOne() {
        List<PartitionSample> w = new ArrayList<>(List.of(new PartitionSample(T0, null, null, 0, 10, false)));
        w.addAll(window(true, s(5, 10)));
        assertThat(status(w)).isEqualTo(LagStatus.OK);
        assertThatThrownBy(() -> LagEvaluator.evaluate(List.of(new PartitionSample(T0, null, null, 0, 10, false)), IDLE))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theGroupIsItsWorstPartition() {
        assertThat(LagStatus.worst(List.of(LagStatus.OK, LagStatus.STALL, LagStatus.WARN))).isEqualTo(LagStatus.STALL);
        assertThat(LagStatus.worst(List.of())).isEqualTo(LagStatus.OK);
        assertThat(LagStatus.worst(List.of(LagStatus.STOP, LagStatus.ERR))).isEqualTo(LagStatus.ERR);
    }
}
