package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.Watcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** A waiting successor's warm-up reads ZooKeeper on a session of its own and changes nothing there. */
@Timeout(60)
class StartUpWarmUpIT {

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    @Test
    void theWarmUpChangesNoZnode() throws Exception {
        CuratorFramework member = zk.newClient();
        ZkRegistry.of(member).members().register("warm", ConsumerId.ofOverride("warm", "a"),
                MemberRegistration.of(Subscription.topics(Map.of("t", 1)), 1L), Duration.ofSeconds(1));
        CuratorFramework observer = zk.newClient();
        List<String> changes = new CopyOnWriteArrayList<>();
        observer.watchers().add().withMode(AddWatchMode.PERSISTENT_RECURSIVE).usingWatcher((Watcher) event -> {
            if (event.getType() != Watcher.Event.EventType.None) {
                changes.add(event.getType() + " " + event.getPath());
            }
        }).forPath("/");

        StartUpWarmUp.run(ZkConsumerConfig.from(Map.of(
                "group.id", "warm",
                "zookeeper.connect", zk.server().connectString())), bootstrap -> {
                    throw new AssertionError("no bootstrap.servers: no fetch client to warm up");
                });

        // a write after the warm-up, seen through the same watch: everything before it was seen too
        observer.create().forPath("/warm-up-done");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> changes.contains("NodeCreated /warm-up-done"));
        assertThat(changes).containsExactly("NodeCreated /warm-up-done");
    }
}
