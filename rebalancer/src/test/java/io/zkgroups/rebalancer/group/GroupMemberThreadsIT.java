package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.testing.ZooKeeperExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The note on threads of {@link ZkGroupMember}, held under load: while members join, leave and rebalance, other threads
 * read every member's health, owned partitions and fence and report unreadable znodes, without pause. Nothing they
 * read may be torn (a snapshot that is not a set of the topic's partitions, an exception from a shared collection),
 * and the group must converge as it would without them.
 */
@Timeout(180)
class ZkGroupMemberThreadsIT {

    private static final String TOPIC = "hammered";
    private static final int PARTITIONS = 40;

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    @Test
    void healthSnapshotsAndReportsFromOtherThreadsDuringRebalancesAreNeverTorn() throws Exception {
        try (TestGroup group = new TestGroup(zk.server(), "threads", "range", 2_000)) {
            group.createTopic(TOPIC, PARTITIONS);
            Subscription subscription = Subscription.topics(Map.of(TOPIC, 2));
            List<ZkGroupMember> members = new ArrayList<>();
            members.add(group.start("m0", subscription));
            members.add(group.start("m1", subscription));

            AtomicBoolean running = new AtomicBoolean(true);
            ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
            AtomicLong reads = new AtomicLong();
            List<Thread> hammers = new ArrayList<>();
            for (int h = 0; h < 3; h++) {
                int id = h;
                Thread t = new Thread(() -> {
                    int round = 0;
                    while (running.get()) {
                        for (ZkGroupMember m : List.copyOf(group.members.values())) {
                            try {
                                Set<TopicAndPartition> owned = m.owned();
                                MemberHealth health = m.health();
                                for (TopicAndPartition tp : owned) {
                                    if (!tp.topic().equals(TOPIC) || tp.partition() < 0 || tp.partition() >= PARTITIONS) {
                                        problems.add(m.consumerId() + " owns " + tp);
                                    }
                                }
                                if (health.owned().size() > PARTITIONS) {
                                    problems.add(m.consumerId() + " reports " + health.owned().size() + " partitions");
                                }
                                m.canDeliver();
                                m.fence().grantsOf(owned);
                                // the offsets part of the consumer reports from its poll thread, on and off
                                m.reportUnreadable("hammer-" + id, round++ % 2 == 0 ? List.of()
                                        : List.of(new Unreadable("/consumers/threads/offsets/" + TOPIC + "/" + id, "test")));
                                reads.incrementAndGet();
                            } catch (RuntimeException e) {
                                problems.add(m.consumerId() + ": " + e);
                            }
                        }
                    }
                }, "hammer-" + h);
                t.start();
                hammers.add(t);
            }
            try {
                for (int i = 2; i < 8; i++) {
                    members.add(group.start("m" + i, subscription));
                    group.awaitConverged();
                    group.stop(members.remove(0));
                    group.awaitConverged();
                }
            } finally {
                running.set(false);
                for (Thread t : hammers) {
                    t.join();
                }
            }
            for (ZkGroupMember m : group.members.values()) {
                for (int h = 0; h < 3; h++) {
                    m.reportUnreadable("hammer-" + h, List.of());
                }
            }

            assertThat(problems).isEmpty();
            assertThat(reads.get()).as("reads from other threads").isGreaterThan(1_000);
            group.awaitConverged();
        }
    }
}
