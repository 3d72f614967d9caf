package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.codec.MemberRegistrationCodec;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
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
    void everyClassOfTheFirstRebalanceItLoadsExistsOnceInTheList() throws IOException {
        ClassLoader loader = StartupWarmup.class.getClassLoader();
        List<String> names = StartupWarmup.startupClasses();

        assertThat(names).as("the list is packaged beside the class").hasSizeGreaterThan(100).doesNotHaveDuplicates()
                .contains(MemberRegistrationCodec.class.getName(), AssignedPartition.class.getName());
        for (String name : names) {
            assertThatCode(() -> Class.forName(name, false, loader)).as("%s: renamed or gone? update %s", name,
                    StartupWarmup.STARTUP_CLASSES).doesNotThrowAnyException();
        }
    }

    @Test
    void runsOnADaemonThreadThatEnds() throws InterruptedException {
        Thread warmup = StartupWarmup.start();

        assertThat(warmup.isDaemon()).as("never keeps a JVM from exiting").isTrue();
        warmup.join(TimeUnit.MINUTES.toMillis(1));
        assertThat(warmup.isAlive()).isFalse();
    }

    @Test
    void theSystemPropertyTurnsItOff() {
        assertThat(startWith("false")).isNull();
        assertThat(startWith("true")).isNotNull();
        assertThat(startWith(null)).as("on by default").isNotNull();
    }

    private static Thread startWith(String setting) {
        String before = System.getProperty(StartupWarmup.ENABLED_PROPERTY);
        set(setting);
        try {
            return StartupWarmup.startUnlessDisabled();
        } finally {
            set(before);
        }
    }

    private static void set(String value) {
        if (value == null) {
            System.clearProperty(StartupWarmup.ENABLED_PROPERTY);
        } else {
            System.setProperty(StartupWarmup.ENABLED_PROPERTY, value);
        }
    }
}
