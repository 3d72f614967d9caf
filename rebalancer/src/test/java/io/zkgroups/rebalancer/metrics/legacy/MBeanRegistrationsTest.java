package io.zkgroups.rebalancer.metrics.legacy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;

import static org.assertj.core.api.Assertions.assertThat;

/** Two consumers with one client id in a JVM: nothing registered twice, meters shared, gauges their first owner's. */
class MBeanRegistrationsTest {

    private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();
    private static final String METER = "kafka.consumer:type=ZookeeperConsumerConnector,name=KafkaCommitsPerSec,clientId=shared-test";
    private static final String GAUGE = "kafka.consumer:type=ConsumerFetcherManager,name=MaxLag,clientId=shared-test";

    private final MBeanRegistrations first = new MBeanRegistrations("shared-test");
    private final MBeanRegistrations second = new MBeanRegistrations("shared-test");

    @AfterEach
    void release() {
        first.unregisterAll();
        second.unregisterAll();
    }

    @Test
    void aMeterIsSharedAndGoesWithItsLastHolder() throws Exception {
        LegacyMeter one = first.meter(METER, new LegacyMeter("commits"));
        LegacyMeter two = second.meter(METER, new LegacyMeter("commits"));
        assertThat(two).as("the second consumer marks the registered meter").isSameAs(one);
        one.mark(2);
        two.mark(3);
        assertThat(JMX.getAttribute(new ObjectName(METER), "Count")).isEqualTo(5L);

        first.unregisterAll();
        assertThat(JMX.isRegistered(new ObjectName(METER))).as("the second consumer still holds it").isTrue();
        second.unregisterAll();
        assertThat(JMX.isRegistered(new ObjectName(METER))).isFalse();
    }

    @Test
    void aGaugeStaysItsFirstOwnersAndGoesWithIt() throws Exception {
        assertThat(first.register(GAUGE, new LegacyGauge(() -> 1L))).isEqualTo(new ObjectName(GAUGE));
        assertThat(second.register(GAUGE, new LegacyGauge(() -> 2L))).isNull();
        assertThat(JMX.getAttribute(new ObjectName(GAUGE), "Value")).isEqualTo(1L);

        second.unregister(new ObjectName(GAUGE));
        assertThat(JMX.isRegistered(new ObjectName(GAUGE))).as("not the second consumer's to remove").isTrue();
        first.unregisterAll();
        assertThat(JMX.isRegistered(new ObjectName(GAUGE))).isFalse();
    }

    @Test
    void aMeterOfAnotherKindUnderTheNameIsNotJoined() {
        LegacyMeter meter = first.meter(METER, new LegacyMeter("commits"));
        LegacyTimer timer = second.meter(METER, new LegacyTimer("calls"));
        assertThat(timer).isNotSameAs(meter);
    }

    @Test
    void aBadNameIsRefusedWithoutAnException() {
        assertThat(first.register("not an object name", new LegacyGauge(() -> 0))).isNull();
    }
}
