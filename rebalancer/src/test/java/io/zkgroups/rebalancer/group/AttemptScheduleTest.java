package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class AttemptScheduleTest {

    private static final RebalanceCause A = new RebalanceCause.Retry("a");
    private static final RebalanceCause B = new RebalanceCause.Retry("b");
    private static final Duration HOUR = Duration.ofHours(1);

    private final ScheduledThreadPoolExecutor loop = new ScheduledThreadPoolExecutor(1);
    private final BlockingQueue<List<RebalanceCause>> ran = new LinkedBlockingQueue<>();
    private AttemptSchedule schedule;

    AttemptScheduleTest() {
        loop.setRemoveOnCancelPolicy(true);
        schedule = new AttemptSchedule(loop, () -> ran.add(schedule.begin()), Time.SYSTEM);
    }

    @AfterEach
    void stop() {
        loop.shutdownNow();
    }

    @Test
    void aSoonerRequestReplacesTheLaterAttemptAndItRunsWithEveryCause() throws Exception {
        schedule.request(A, HOUR);
        schedule.request(B, Duration.ZERO);

        assertThat(ran.poll(30, TimeUnit.SECONDS)).containsExactly(A, B);
        assertThat(loop.getQueue()).isEmpty(); // the hour's attempt was cancelled, not left to run again
    }

    @Test
    void aLaterRequestLeavesTheEarlierAttemptAsItIs() {
        schedule.request(A, HOUR);
        schedule.request(B, HOUR.multipliedBy(2));

        assertThat(loop.getQueue()).hasSize(1);
        assertThat(((java.util.concurrent.Delayed) loop.getQueue().peek()).getDelay(TimeUnit.MINUTES)).isLessThanOrEqualTo(60);
        assertThat(schedule.begin()).containsExactly(A, B);
    }

    @Test
    void causesPutBackComeBeforeThoseGatheredMeanwhile() {
        schedule.request(A, HOUR);
        List<RebalanceCause> first = schedule.begin();
        schedule.request(B, HOUR);
        schedule.putBack(first);

        assertThat(schedule.begin()).containsExactly(A, B);
        assertThat(schedule.begin()).isEmpty();
    }

    @Test
    void afterStopNothingIsScheduled() throws Exception {
        schedule.request(A, HOUR);
        schedule.stop();
        assertThat(loop.getQueue()).isEmpty();

        schedule.request(B, Duration.ZERO);
        schedule.within(Duration.ZERO);
        loop.shutdown(); // runs whatever was scheduled before it terminates
        assertThat(loop.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        assertThat(ran).isEmpty();
    }
}
