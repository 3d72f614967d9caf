package io.zkgroups.it;

import io.zkgroups.rebalancer.group.ZkGroupMember;
import io.zkgroups.rebalancer.group.GroupMemberConfig;
import io.zkgroups.rebalancer.group.MemberState;
import io.zkgroups.rebalancer.group.MembershipListener;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.model.TopicRegistration;
import io.zkgroups.registry.server.ServerCapabilities;
import io.zkgroups.registry.server.ServerGeneration;
import io.zkgroups.testing.ZooKeeperExtension;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * On whatever server the suite runs on (in-process 3.9, or a child 3.4.14 / 3.5.10 in the older ensembles' runs): the
 * client learns the server's generation without losing its connection, and members join, claim, hand over and leave
 * without a request the server does not implement — which such a server would answer by closing the connection. So no
 * client may see its connection suspended, and the server must log no request of unknown type.
 */
@Tag("older-zookeeper") // also run on ZooKeeper 3.4 and 3.5 (integration-tests/pom.xml)
@Timeout(90)
class ServerGenerationIT {

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    @Test
    void theGenerationIsLearnedAndMembersJoinHandOverAndLeaveWithoutAReconnection() {
        List<String> connectionEvents = Collections.synchronizedList(new ArrayList<>());
        CuratorFramework admin = watched(zk.newClient(), "admin", connectionEvents);
        ServerGeneration expected = ServerGeneration.ofVersion(zk.server().version());
        assertThat(ServerCapabilities.of(admin)).as("generation of ZooKeeper %s", zk.server().version()).isEqualTo(expected);

        ZkRegistry registry = ZkRegistry.of(admin);
        registry.topics().create("gen-t", TopicRegistration.v1(8, List.of(0)));
        CuratorFramework c1 = watched(zk.newClient(4_000), "m1", connectionEvents);
        CuratorFramework c2 = watched(zk.newClient(4_000), "m2", connectionEvents);
        ZkGroupMember m1 = member(c1, "m1");
        ZkGroupMember m2 = member(c2, "m2");
        m1.start();
        await("m1 owns all 8").atMost(Duration.ofSeconds(30)).until(() -> owned(m1).size() == 8);
        long requests = receivedByServer();
        long started = System.nanoTime();
        m2.start();
        await("m1 and m2 own 4 each").atMost(Duration.ofSeconds(30))
                .until(() -> owned(m1).size() == 4 && owned(m2).size() == 4 && stable(m1) && stable(m2));
        long joinMs = (System.nanoTime() - started) / 1_000_000;
        long joinRequests = receivedByServer() - requests;
        // a member's alarms reach ZooKeeper with requests this server implements (no create2 on 3.4)
        List<io.zkgroups.registry.store.Unreadable> alarm = List.of(
                new io.zkgroups.registry.store.Unreadable("kafka:gen-t-4", "cannot be fetched: test"));
        m2.reportUnreadable("kafka", alarm);
        await("m2's alarm published").atMost(Duration.ofSeconds(30))
                .until(() -> alarm.equals(registry.memberAlarms().read("gen").alarms().get(m2.consumerId())));
        m2.reportUnreadable("kafka", List.of());
        await("m2's alarm cleared").atMost(Duration.ofSeconds(30))
                .until(() -> registry.memberAlarms().read("gen").alarms().isEmpty());
        requests = receivedByServer();
        started = System.nanoTime();
        m1.close();
        await("m2 owns all 8 after m1 left").atMost(Duration.ofSeconds(30)).until(() -> owned(m2).size() == 8);
        long leaveMs = (System.nanoTime() - started) / 1_000_000;
        long leaveRequests = receivedByServer() - requests;
        // the figures docs/compatibility.md reports per server version
        System.out.printf("[ZooKeeper %s] second member's join: %d ms, %d requests; first member's leave: %d ms,"
                + " %d requests%n", zk.server().version(), joinMs, joinRequests, leaveMs, leaveRequests);
        Map<TopicAndPartition, String> owners = new java.util.TreeMap<>();
        registry.owners().owners("gen").entries().forEach(o -> owners.put(o.partition(), o.value()));
        assertThat(owners).hasSize(8).allSatisfy((p, owner) -> assertThat(owner).isEqualTo("gen_m2-0"));
        m2.close();

        assertThat(connectionEvents).as("connection state changes of the clients").isEmpty();
        zk.server().child().ifPresent(child -> assertThat(child.log())
                .as("ZooKeeper %s's log", child.version())
                .doesNotContainIgnoringCase("unknown type")
                .doesNotContain("Unimplemented"));
    }

    /** Requests the server received so far, from its {@code srvr} answer (a 4-letter word is not counted). */
    private static long receivedByServer() {
        String srvr = io.zkgroups.testing.ChildZooKeeperServer.srvr(zk.connectString());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Received: (\\d+)").matcher(srvr);
        assertThat(m.find()).as("srvr answer: %s", srvr).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static CuratorFramework watched(CuratorFramework client, String name, List<String> events) {
        client.getConnectionStateListenable().addListener((c, state) -> {
            if (state != ConnectionState.CONNECTED) {
                events.add(name + ": " + state);
            }
        });
        return client;
    }

    private static ZkGroupMember member(CuratorFramework client, String name) {
        ConsumerId id = ConsumerId.ofOverride("gen", name);
        return ZkGroupMember.onZooKeeper(client, ZkLayout.root(),
                GroupMemberConfig.of("gen", id, Subscription.topics(Map.of("gen-t", 1))), MembershipListener.NONE);
    }

    private static Set<TopicAndPartition> owned(ZkGroupMember member) {
        return new TreeSet<>(member.health().owned());
    }

    private static boolean stable(ZkGroupMember member) {
        return member.health().state() == MemberState.STABLE;
    }
}
