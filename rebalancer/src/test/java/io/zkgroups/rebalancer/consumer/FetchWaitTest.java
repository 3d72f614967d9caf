package io.zkgroups.rebalancer.consumer;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class FetchWaitTest {

    private final FetchWait wait = new FetchWait();
    private final AtomicInteger wakeups = new AtomicInteger();

    @Test
    void newsWhileNobodyWaitsSendsNoWakeup() {
        wait.interrupt(wakeups::incrementAndGet);
        wait.enter();
        assertThat(wait.leave()).as("broken").isFalse();
        wait.interrupt(wakeups::incrementAndGet);

        assertThat(wakeups).as("a wakeup left pending would make the client's next call throw").hasValue(0);
    }

    @Test
    void newsWhileThePollThreadWaitsSendsOneWakeupAndTheThreadHearsOfIt() {
        wait.enter();
        wait.interrupt(wakeups::incrementAndGet);
        wait.interrupt(wakeups::incrementAndGet);

        assertThat(wakeups).hasValue(1);
        assertThat(wait.leave()).as("broken").isTrue();
        wait.enter();
        assertThat(wait.leave()).as("the next wait starts unbroken").isFalse();
    }

    @Test
    void aWakeupThatFailsStillLetsThePollThreadGoOn() {
        wait.enter();
        try {
            wait.interrupt(() -> {
                throw new IllegalStateException("closed");
            });
        } catch (IllegalStateException expected) {
            // the interrupting thread hears of it
        }
        assertThat(wait.leave()).isTrue();
    }
}
