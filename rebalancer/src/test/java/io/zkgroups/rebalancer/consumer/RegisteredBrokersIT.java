package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.metrics.legacy.BrokerAddress;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.drivers.AdvancedTracerDriver;
import org.apache.curator.drivers.EventTrace;
import org.apache.curator.drivers.OperationTrace;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The 0.8 per-broker MBeans' address lookup: served from the start-up listing, unknown ids read in the background. */
@Timeout(60)
class RegisteredBrokersIT {

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    @Test
    void aBrokerListedAtStartUpIsKnownWithoutAZooKeeperRead() {
        CuratorFramework client = zk.newClient();
        AtomicInteger listings = countListings(client);
        BrokerInfo broker = BrokerInfo.v1(1, "broker-1.example", 9092, -1, 0L);
        RegisteredBrokers brokers = new RegisteredBrokers(ZkRegistry.of(client), List.of(broker), Time.SYSTEM);

        assertThat(brokers.apply(1)).contains(new BrokerAddress("broker-1.example", 9092));
        assertThat(listings).as("reads of /brokers/ids").hasValue(0);
    }

    @Test
    void anUnknownIdIsReadInTheBackgroundNotOnTheCallersThread() {
        ZkRegistry admin = ZkRegistry.of(zk.newClient());
        admin.brokers().register(BrokerInfo.v1(7, "broker-7.example", 9093, -1, 0L));
        RegisteredBrokers brokers = new RegisteredBrokers(ZkRegistry.of(zk.newClient()), List.of(), Time.SYSTEM);

        // a read on the caller's thread would have found it already
        assertThat(brokers.apply(7)).as("the first lookup does not wait for ZooKeeper").isEmpty();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> brokers.apply(7), Optional.of(new BrokerAddress("broker-7.example", 9093))::equals);
    }

    private static AtomicInteger countListings(CuratorFramework client) {
        AtomicInteger listings = new AtomicInteger();
        client.getZookeeperClient().setTracerDriver(new AdvancedTracerDriver() {
            @Override
            public void addTrace(OperationTrace trace) {
                if (trace.getName().startsWith("GetChildrenBuilderImpl") && "/brokers/ids".equals(trace.getPath())) {
                    listings.incrementAndGet();
                }
            }

            @Override
            public void addEvent(EventTrace trace) {
            }
        });
        return listings;
    }
}
