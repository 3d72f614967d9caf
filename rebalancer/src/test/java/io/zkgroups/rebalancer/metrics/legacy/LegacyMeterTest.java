package io.zkgroups.rebalancer.metrics.legacy;

import io.zkgroups.registry.ManualTime;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The 0.8.2.2 (Yammer 2.2) meter and timer arithmetic, on a clock the test moves. */
class LegacyMeterTest {

    private final ManualTime now = new ManualTime();

    private void advanceSeconds(long seconds) {
        now.advance(java.time.Duration.ofSeconds(seconds));
    }

    @Test
    void movingAveragesDecayLikeYammersAfterOneBurst() {
        LegacyMeter meter = new LegacyMeter("commits", now);
        meter.mark(3);
        advanceSeconds(5); // one tick: 3 events in 5 s
        assertThat(meter.getOneMinuteRate()).isCloseTo(0.6, within(1e-6));
        assertThat(meter.getFiveMinuteRate()).isCloseTo(0.6, within(1e-6));
        assertThat(meter.getFifteenMinuteRate()).isCloseTo(0.6, within(1e-6));
        advanceSeconds(60); // twelve empty ticks
        assertThat(meter.getOneMinuteRate()).isCloseTo(0.22072766, within(1e-6));
        assertThat(meter.getFiveMinuteRate()).isCloseTo(0.49123845, within(1e-6));
        assertThat(meter.getFifteenMinuteRate()).isCloseTo(0.56130419, within(1e-6));
        assertThat(meter.getCount()).isEqualTo(3);
        assertThat(meter.getMeanRate()).isCloseTo(3.0 / 65, within(1e-9));
        assertThat(meter.getEventType()).isEqualTo("commits");
        assertThat(meter.getRateUnit()).isEqualTo(TimeUnit.SECONDS);
    }

    @Test
    void aMeterNeverMarkedReadsZero() {
        LegacyMeter meter = new LegacyMeter("commits", now);
        advanceSeconds(30);
        assertThat(meter.getCount()).isZero();
        assertThat(meter.getMeanRate()).isZero();
        assertThat(meter.getOneMinuteRate()).isZero();
    }

    @Test
    void timerKeepsAllTimeExtremesAndInterpolatedPercentiles() {
        LegacyTimer timer = new LegacyTimer("calls", now);
        assertThat(timer.get99thPercentile()).isZero();
        for (int ms = 10; ms >= 1; ms--) {
            timer.update(ms);
        }
        assertThat(timer.getCount()).isEqualTo(10);
        assertThat(timer.getMin()).isEqualTo(1.0);
        assertThat(timer.getMax()).isEqualTo(10.0);
        assertThat(timer.getMean()).isCloseTo(5.5, within(1e-9));
        assertThat(timer.getStdDev()).isCloseTo(3.0276503540974917, within(1e-9)); // sample standard deviation
        assertThat(timer.get50thPercentile()).isCloseTo(5.5, within(1e-9));
        assertThat(timer.get75thPercentile()).isCloseTo(8.25, within(1e-9));
        assertThat(timer.get999thPercentile()).isEqualTo(10.0);
        assertThat(timer.getLatencyUnit()).isEqualTo(TimeUnit.MILLISECONDS);
    }

    @Test
    void oneRebalanceIsEveryStatistic() {
        LegacyTimer timer = new LegacyTimer("calls", now);
        timer.update(224.12);
        assertThat(timer.getMin()).isEqualTo(224.12);
        assertThat(timer.getMax()).isEqualTo(224.12);
        assertThat(timer.get50thPercentile()).isEqualTo(224.12);
        assertThat(timer.get999thPercentile()).isEqualTo(224.12);
        assertThat(timer.getStdDev()).isZero();
    }
}
