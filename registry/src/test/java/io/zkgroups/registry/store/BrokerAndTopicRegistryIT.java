package io.zkgroups.registry.store;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.TopicRegistration;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(60)
class BrokerAndTopicRegistryIT {

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    private static ZkRegistry registry(CuratorFramework client, String chroot) {
        return new ZkRegistry(client, ZkLayout.withChroot(chroot));
    }

    @Test
    void registeredBrokerIsEphemeralWithTheExactV1BytesAndIsListed() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = registry(client, "/brokers1");
        registry.brokers().register(BrokerInfo.v1(3, "broker3.example.com", 9092, 9999, 1795989019637L));

        byte[] data = client.getData().forPath("/brokers1/brokers/ids/3");
        assertThat(new String(data, StandardCharsets.UTF_8)).isEqualTo(
                "{\"jmx_port\":9999,\"timestamp\":\"1795989019637\",\"host\":\"broker3.example.com\",\"version\":1,\"port\":9092}");
        assertThat(client.checkExists().forPath("/brokers1/brokers/ids/3").getEphemeralOwner())
                .isEqualTo(client.getZookeeperClient().getZooKeeper().getSessionId());
        Listing<BrokerInfo> listing = registry.brokers().list();
        assertThat(listing.entries()).extracting(BrokerInfo::id, BrokerInfo::host, BrokerInfo::port)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(3, "broker3.example.com", 9092));
        assertThat(listing.unreadable()).isEmpty();
    }

    @Test
    void aLiveDuplicateBrokerIdIsAnErrorNamingPathAndHolder() {
        ZkRegistry first = registry(zk.newClient(), "/brokers2");
        ZkRegistry second = registry(zk.newClient(), "/brokers2");
        first.brokers().register(BrokerInfo.v1(1, "a", 9092, -1, 1));
        first.brokers().register(BrokerInfo.v1(1, "a", 9093, -1, 2)); // same session: fine, data updated

        assertThatThrownBy(() -> second.brokers().register(BrokerInfo.v1(1, "b", 9092, -1, 3)))
                .isInstanceOf(BrokerRegistry.AlreadyRegisteredException.class)
                .hasMessageContaining("/brokers2/brokers/ids/1")
                .hasMessageContaining("\"port\":9093");
        assertThat(second.brokers().list().entries()).singleElement()
                .extracting(BrokerInfo::port).isEqualTo(9093);
    }

    @Test
    void malformedBrokerRegistrationsAreReportedNotThrown() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = registry(client, "/brokers3");
        registry.brokers().register(BrokerInfo.v1(0, "good", 9092, -1, 1));
        client.create().withMode(CreateMode.EPHEMERAL).forPath("/brokers3/brokers/ids/7", "not json".getBytes(StandardCharsets.UTF_8));
        client.create().withMode(CreateMode.EPHEMERAL).forPath("/brokers3/brokers/ids/x", "{}".getBytes(StandardCharsets.UTF_8));

        Listing<BrokerInfo> listing = registry.brokers().list();
        assertThat(listing.entries()).extracting(BrokerInfo::id).containsExactly(0);
        assertThat(listing.unreadable()).extracting(Unreadable::path)
                .containsExactlyInAnyOrder("/brokers3/brokers/ids/7", "/brokers3/brokers/ids/x");
        assertThat(listing.unreadable()).allSatisfy(u -> assertThat(u.reason()).isNotBlank());
    }

    @Test
    void brokerWatchFiresWhenABrokerJoins() throws Exception {
        ZkRegistry registry = registry(zk.newClient(), "/brokers4");
        registry.brokers().register(BrokerInfo.v1(0, "h", 1, -1, 1));
        CountDownLatch changed = new CountDownLatch(1);
        registry.brokers().list(event -> changed.countDown());

        registry(zk.newClient(), "/brokers4").brokers().register(BrokerInfo.v1(1, "h", 2, -1, 1));

        assertThat(changed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(registry.brokers().list().entries()).hasSize(2);
    }

    @Test
    void topicsAreCreatedReadAndGrownWithDataWatchesFiring() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = registry(client, "/topics1");
        CountDownLatch created = new CountDownLatch(1);
        assertThat(registry.topics().read("orders", event -> created.countDown())).isEmpty();
        CountDownLatch listed = new CountDownLatch(1);
        assertThat(registry.topics().topics(event -> listed.countDown())).isEmpty();

        registry.topics().create("orders", TopicRegistration.v1(2, List.of(0)));
        assertThat(created.await(10, TimeUnit.SECONDS)).as("creation watch").isTrue();
        assertThat(listed.await(10, TimeUnit.SECONDS)).as("topic list watch").isTrue();
        assertThat(new String(client.getData().forPath("/topics1/brokers/topics/orders"), StandardCharsets.UTF_8))
                .isEqualTo("{\"version\":1,\"partitions\":{\"0\":[0],\"1\":[0]}}");

        CountDownLatch grown = new CountDownLatch(1);
        assertThat(registry.topics().read("orders", event -> grown.countDown()).orElseThrow().partitions())
                .containsExactly(0, 1);
        registry.topics().addPartitions("orders", 4, List.of(1));
        assertThat(grown.await(10, TimeUnit.SECONDS)).as("data watch").isTrue();
        TopicRegistration now = registry.topics().read("orders").orElseThrow();
        assertThat(now.partitions()).containsExactly(0, 1, 2, 3);
        assertThat(now.replicaMap().get(3)).containsExactly(1);
        assertThat(registry.topics().topics()).containsExactly("orders");

        assertThatThrownBy(() -> registry.topics().create("orders", TopicRegistration.v1(1, List.of(0))))
                .isInstanceOf(TopicRegistry.TopicExistsException.class)
                .hasMessageContaining("/topics1/brokers/topics/orders");
    }

    @Test
    void aCorruptTopicIsATypedErrorNamingThePath() throws Exception {
        CuratorFramework client = zk.newClient();
        ZkRegistry registry = registry(client, "/topics2");
        client.create().creatingParentsIfNeeded().forPath("/topics2/brokers/topics/bad", "{\"partitions\":{\"x\":[1]}}".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> registry.topics().read("bad"))
                .isInstanceOf(CorruptZnodeException.class)
                .hasMessageContaining("/topics2/brokers/topics/bad")
                .hasMessageContaining("'x'");
    }

    @Test
    void parentsArePersistentWithEmptyDataAndNeverContainers() throws Exception {
        CuratorFramework client = zk.newClient();
        registry(client, "/parents").brokers().register(BrokerInfo.v1(0, "h", 1, -1, 1));
        for (String path : List.of("/parents", "/parents/brokers", "/parents/brokers/ids")) {
            org.apache.zookeeper.data.Stat stat = client.checkExists().forPath(path);
            assertThat(stat.getEphemeralOwner()).as(path + " is persistent, not ephemeral or container").isZero();
            assertThat(client.getData().forPath(path)).as(path + " data").isEmpty();
        }
    }
}
