package io.zkgroups.rebalancer.consumer;

import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class BackgroundCommitTest {

    @Test
    void aWriteStaysInFlightUntilItsOutcomeIsTakenEvenOnceItHasEnded() throws Exception {
        try (BackgroundCommit<Integer> commit = new BackgroundCommit<>("test-commit")) {
            CountDownLatch written = new CountDownLatch(1);
            commit.start(() -> {
                written.countDown();
                return 7;
            });
            written.await(1, TimeUnit.MINUTES);

            assertThat(commit.busy()).as("ended or not, its outcome is still to be taken").isTrue();
            assertThatThrownBy(() -> commit.start(() -> 8)).isInstanceOf(IllegalStateException.class);
            BackgroundCommit.Outcome<Integer>[] taken = new BackgroundCommit.Outcome[1];
            await().atMost(Duration.ofMinutes(1)).until(() -> (taken[0] = commit.collect()) != null);
            assertThat(taken[0].result()).isEqualTo(7);
            assertThat(commit.busy()).isFalse();
            assertThat(commit.collect()).as("taken once").isNull();
        }
    }

    @Test
    void aFailureIsTheOutcomeAndAnAwaitThatRunsOutLeavesTheWriteInFlight() throws Exception {
        try (BackgroundCommit<Integer> commit = new BackgroundCommit<>("test-commit")) {
            CountDownLatch release = new CountDownLatch(1);
            commit.start(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                throw new IllegalArgumentException("store down");
            });

            assertThatThrownBy(() -> commit.await(TimeUnit.MILLISECONDS.toNanos(10))).isInstanceOf(TimeoutException.class);
            assertThat(commit.busy()).isTrue();
            release.countDown();
            BackgroundCommit.Outcome<Integer> outcome = commit.await(-1);
            assertThat(outcome.failure()).isInstanceOf(IllegalArgumentException.class).hasMessage("store down");
            assertThat(outcome.result()).isNull();
        }
    }
}
