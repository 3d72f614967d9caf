package io.zkgroups.rebalancer.consumer;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

class StartupWarmupTest {

    @Test
    void everyClassItWarmsIsInTheKafkaClientsOnTheClassPath() {
        ClassLoader loader = StartupWarmup.class.getClassLoader();
        for (String name : StartupWarmup.KAFKA_PROTOCOL) {
            assertThatCode(() -> Class.forName(name, false, loader)).as(name).doesNotThrowAnyException();
        }
    }

    @Test
    void runsOnADaemonThreadThatEnds() throws InterruptedException {
        Thread warmup = StartupWarmup.start();

        assertThat(warmup.isDaemon()).as("never keeps a JVM from exiting").isTrue();
        warmup.join(TimeUnit.MINUTES.toMillis(1));
        assertThat(warmup.isAlive()).isFalse();
    }
}
