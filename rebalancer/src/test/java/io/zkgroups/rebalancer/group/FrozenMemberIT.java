package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.store.Member;
import io.zkgroups.testing.ChildJvm;
import io.zkgroups.testing.ChildOutput;
import io.zkgroups.testing.ZooKeeperExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A member whose whole process is frozen ({@code SIGSTOP}: a long GC pause, a stopped container, a VM
 * migration) for longer than its session timeout. The server expires its session and another member takes its
 * partitions while it cannot notice anything. When it resumes it must not hand out a single record under the
 * old session, must not commit the partitions it lost (commits happen in {@code onRevoked}), and must rejoin
 * with a new session.
 * <p>
 * The other tests here are the in-process relatives of that hazard: a member whose idea of what it owns lags
 * behind ZooKeeper (a rebalance attempt stalled past the session; health reporting a partition whose owner
 * znode is already gone).
 */
@Timeout(120)
class FrozenMemberIT {

    private static final int CHILD_SESSION_MS = 2_000;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final AtomicInteger CHILDREN = new AtomicInteger();

    @RegisterExtension
    static final ZooKeeperExtension zk = new ZooKeeperExtension();

    @Test
    void aMemberFrozenPastItsSessionNeverDeliversNorCommitsUnderTheOldSessionAndRejoinsWithANewOne() throws Exception {
        Subscription ice = Subscription.topics(Map.of("ice", 1));
        Set<TopicAndPartition> all = IntStream.range(0, 4).mapToObj(p -> TopicAndPartition.of("ice", p))
                .collect(Collectors.toCollection(TreeSet::new));
        try (TestGroup group = new TestGroup(zk.server(), "frozen", "range", 2_000);
             Child child = Child.start(zk.connectString(), "frozen", "child", "ice", CHILD_SESSION_MS)) {
            group.createTopic("ice", 4);
            ConsumerId childId = ConsumerId.ofOverride("frozen", "child");
            child.awaitLine(0, l -> l.startsWith("DELIVER ") && Line.parse(l).partitions().equals(all),
                    "the child delivering all four partitions");

            ZkGroupMember other = group.start("other", ice);
            group.awaitConverged();
            Set<TopicAndPartition> childOwns = ownedBy(group, childId);
            assertThat(childOwns).hasSize(2);
            long oldSession = sessionOf(group, childId);
            child.awaitLine(0, l -> l.startsWith("DELIVER " + MemberProcessMain.hex(oldSession) + " ")
                    && Line.parse(l).partitions().equals(childOwns), "the child delivering its half");

            // Freeze the whole process for longer than its session: the server expires it, the other member
            // takes everything. The child cannot notice any of it.
            child.signal("STOP");
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(2)).until(child::isStopped);
            long stoppedAt = System.nanoTime();
            assertThat(ownedBy(group, childId)).as("the frozen child's owner znodes, right after the freeze")
                    .isEqualTo(childOwns);
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(other.health().state()).isEqualTo(MemberState.STABLE);
                assertThat(other.owned()).isEqualTo(all);
                assertThat(group.ownerZnodes().values()).hasSize(4).containsOnly("frozen_other-0");
            });
            assertThat(child.isStopped()).as("still frozen when the other member took over").isTrue();

            child.signal("CONT");
            child.send("RESUMED");
            child.awaitLine(0, l -> l.startsWith("MARK "), "MARK");

            // It learns that the session is gone, reports its partitions lost, rejoins and gets its half back.
            child.awaitLine(0, l -> l.startsWith("LOST ") && Line.parse(l).nanos() > stoppedAt
                    && Line.parse(l).partitions().equals(childOwns), "LOST of the old partitions");
            group.awaitConverged();
            long newSession = sessionOf(group, childId);
            assertThat(newSession).isNotEqualTo(oldSession);
            Set<TopicAndPartition> childOwnsNow = ownedBy(group, childId);
            assertThat(childOwnsNow).hasSize(2);
            child.awaitLine(0, l -> l.startsWith("DELIVER " + MemberProcessMain.hex(newSession) + " ")
                    && Line.parse(l).partitions().equals(childOwnsNow), "deliveries under the new session");

            List<Line> events = child.lines().stream().filter(l -> !l.startsWith("STARTED") && !l.startsWith("MARK"))
                    .map(Line::parse).toList();
            String old = MemberProcessMain.hex(oldSession);
            assertThat(events).filteredOn(e -> e.kind().equals("DELIVER") && e.session().equals(old))
                    .as("deliveries under the old session").isNotEmpty()
                    .allSatisfy(e -> assertThat(e.nanos()).as("an old-session delivery after the freeze: " + e)
                            .isLessThan(stoppedAt));
            List<String> lines = child.lines(); // one copy: the child goes on printing
            int mark = IntStream.range(0, lines.size()).filter(i -> lines.get(i).startsWith("MARK ")).findFirst()
                    .orElseThrow();
            assertThat(lines.subList(mark, lines.size())).filteredOn(l -> l.startsWith("DELIVER "))
                    .allSatisfy(l -> assertThat(Line.parse(l).session()).isNotEqualTo(old));
            assertThat(events).filteredOn(e -> e.kind().equals("REVOKED") && e.nanos() > stoppedAt)
                    .as("commits (REVOKED) after the freeze: the lost partitions must not be committed").isEmpty();
            assertThat(events).filteredOn(e -> e.kind().equals("LOST"))
                    .singleElement().satisfies(e -> assertThat(e.partitions()).isEqualTo(childOwns));

            // Under the new session it hands out only what it was assigned under the new session.
            Set<TopicAndPartition> assignedNow = new TreeSet<>();
            for (Line e : events) {
                if (e.nanos() < stoppedAt) {
                    continue;
                }
                if (e.kind().equals("ASSIGNED")) {
                    assignedNow.addAll(e.partitions());
                } else if (e.kind().equals("DELIVER")) {
                    assertThat(assignedNow).as("delivered " + e + " after the resume").containsAll(e.partitions());
                }
            }
            assertThat(group.tracker.violations()).isEmpty();
        }
    }

    /**
     * The same hazard inside one process: a rebalance attempt stalls (here: in the topic metadata read) after it
     * read the group, and the session expires meanwhile. When the attempt goes on, the partitions it computed as
     * moving away already belong to the other member: they must be reported lost, never revoked (= committed).
     */
    @Test
    void aRebalanceStalledPastTheSessionReportsMovedPartitionsLostInsteadOfRevokingThem() throws Exception {
        Subscription stall = Subscription.topics(Map.of("stall", 1));
        try (TestGroup group = new TestGroup(zk.server(), "stalled", "range", 2_000)) {
            group.createTopic("stall", 4);
            ConsumerId id = ConsumerId.ofOverride("stalled", "slow");
            org.apache.curator.framework.CuratorFramework client = zk.newClient(2_000);
            StallingTopicMetadata metadata = new StallingTopicMetadata(new ZkTopicMetadata(group.observer.topics()));
            List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
            MembershipListener tracked = group.tracker.listenerFor(id, () -> TestGroup.sessionOf(client));
            ZkGroupMember slow = new ZkGroupMember(client, io.zkgroups.registry.ZkLayout.root(),
                    GroupMemberConfig.of("stalled", id, stall), metadata, new MembershipListener() {
                        @Override
                        public void onRevoked(Set<TopicAndPartition> partitions) {
                            events.add("revoked " + partitions);
                            tracked.onRevoked(partitions);
                        }

                        @Override
                        public void onLost(Set<TopicAndPartition> partitions) {
                            events.add("lost " + partitions);
                            tracked.onLost(partitions);
                        }

                        @Override
                        public void onAssigned(java.util.SortedMap<TopicAndPartition, OwnershipFence.Grant> grants) {
                            events.add("assigned " + grants.keySet());
                            tracked.onAssigned(grants);
                        }
                    });
            group.members.put(id, slow);
            group.clients.put(id, client);
            slow.start();
            group.awaitConverged();
            assertThat(slow.owned()).hasSize(4);

            metadata.stallNextRead();
            ZkGroupMember other = group.start("other", stall);
            assertThat(metadata.awaitStalled(WAIT)).as("the slow member's rebalance reached the stall").isTrue();
            group.expire(slow);
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(other.owned()).hasSize(4);
                assertThat(slow.canDeliver()).isFalse();
            });
            int before = events.size();

            metadata.release();

            group.awaitConverged();
            assertThat(events.subList(before, events.size())).as("what the stalled member did after its session expired")
                    .noneMatch(e -> e.startsWith("revoked"))
                    .anyMatch(e -> e.startsWith("lost"));
            assertThat(slow.owned()).hasSize(2);
        }
    }

    /**
     * The mildest form of a stale view: {@code health().owned()} — what monitoring and the double-ownership
     * checks read — must stop listing a partition before its owner znode is deleted, because the moment it is
     * deleted another member may claim it. The member's ZooKeeper handle runs a check on every transaction that
     * deletes owner znodes, on the member's own thread: after a synchronous one returns, before an asynchronous one
     * is sent.
     */
    @Test
    void healthStopsReportingAPartitionBeforeItsOwnerZnodeIsDeleted() throws Exception {
        try (TestGroup group = new TestGroup(zk.server(), "lag", "range", 2_000)) {
            group.createTopic("lag", 4);
            ConsumerId id = ConsumerId.ofOverride("lag", "watched");
            java.util.concurrent.atomic.AtomicReference<ZkGroupMember> self = new java.util.concurrent.atomic.AtomicReference<>();
            List<String> checks = java.util.Collections.synchronizedList(new ArrayList<>());
            String ownersPrefix = "/consumers/lag/owners/";
            org.apache.curator.framework.CuratorFramework client = connect((connect, timeout, watcher, readOnly) -> new org.apache.zookeeper.ZooKeeper(connect, timeout, watcher, readOnly) {
                        @Override
                        public List<org.apache.zookeeper.OpResult> multi(Iterable<org.apache.zookeeper.Op> ops)
                                throws InterruptedException, org.apache.zookeeper.KeeperException {
                            List<org.apache.zookeeper.OpResult> results = super.multi(ops);
                            check(ops);
                            return results;
                        }

                        @Override
                        public void multi(Iterable<org.apache.zookeeper.Op> ops, org.apache.zookeeper.AsyncCallback.MultiCallback cb,
                                          Object ctx) {
                            check(ops); // before it is even sent: stricter than after
                            super.multi(ops, cb, ctx);
                        }

                        private void check(Iterable<org.apache.zookeeper.Op> ops) {
                            Set<TopicAndPartition> deleted = new TreeSet<>();
                            for (org.apache.zookeeper.Op op : ops) {
                                if (op.getType() == org.apache.zookeeper.ZooDefs.OpCode.delete && op.getPath().startsWith(ownersPrefix)) {
                                    String[] tp = op.getPath().substring(ownersPrefix.length()).split("/");
                                    deleted.add(TopicAndPartition.of(tp[0], Integer.parseInt(tp[1])));
                                }
                            }
                            if (!deleted.isEmpty() && self.get() != null) {
                                Set<TopicAndPartition> reported = new TreeSet<>(self.get().owned());
                                reported.retainAll(deleted);
                                checks.add(reported.isEmpty() ? "ok" : "owner znodes of " + deleted
                                        + " deleted while health() still reports " + reported);
                            }
                        }
                    });
            ZkGroupMember watched = join(group, id, client, "lag");
            self.set(watched);
            watched.start();
            group.awaitConverged();

            group.start("other", Subscription.topics(Map.of("lag", 1))); // the watched member lets go of two
            group.awaitConverged();
            group.stop(watched);                                         // ... and the other two when it leaves
            group.awaitConverged();

            assertThat(checks).as("checks after owner znodes were deleted").hasSize(2).containsOnly("ok");
        }
    }

    /**
     * While a new session is being established the client reports session id 0 — the value the member uses for "not
     * registered". A member that read it at the start of an attempt once registered "in session 0", claimed in the
     * real session and, on the retry, kept the partitions without ever telling its listener (ZkGroupMemberIT's session
     * expiry test caught it, rarely). Here the handle reports 0 exactly once, at a rebalance.
     */
    @Test
    void aSessionIdOfZeroWhileReconnectingDoesNotLeaveClaimsTheListenerNeverHeardOf() throws Exception {
        try (TestGroup group = new TestGroup(zk.server(), "zero", "range", 2_000)) {
            group.createTopic("zero", 4);
            ConsumerId id = ConsumerId.ofOverride("zero", "flaky");
            java.util.concurrent.atomic.AtomicBoolean reportZeroOnce = new java.util.concurrent.atomic.AtomicBoolean();
            org.apache.curator.framework.CuratorFramework client = connect((connect, timeout, watcher, readOnly) -> new org.apache.zookeeper.ZooKeeper(connect, timeout, watcher, readOnly) {
                        @Override
                        public long getSessionId() {
                            return reportZeroOnce.compareAndSet(true, false) ? 0 : super.getSessionId();
                        }
                    });
            ZkGroupMember flaky = join(group, id, client, "zero");
            flaky.start();
            group.awaitConverged();

            reportZeroOnce.set(true); // the next attempt starts by reading the session id
            group.start("other", Subscription.topics(Map.of("zero", 1)));

            group.awaitConverged(); // includes: what each member's listener was told equals what it owns
            assertThat(reportZeroOnce).as("the zero was read").isFalse();
        }
    }

    /** A started, connected client (2 s session) whose ZooKeeper handles {@code handles} makes. */
    private static org.apache.curator.framework.CuratorFramework connect(org.apache.curator.utils.ZookeeperFactory handles)
            throws InterruptedException {
        org.apache.curator.framework.CuratorFramework client = org.apache.curator.framework.CuratorFrameworkFactory.builder()
                .connectString(zk.connectString()).sessionTimeoutMs(2_000)
                .retryPolicy(new org.apache.curator.retry.ExponentialBackoffRetry(50, 10, 500))
                .zookeeperFactory(handles)
                .build();
        client.start();
        assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
        return client;
    }

    /** A member {@code id} of {@code group} on {@code client}, subscribed to {@code topic}, not started yet. */
    private static ZkGroupMember join(TestGroup group, ConsumerId id, org.apache.curator.framework.CuratorFramework client,
                                    String topic) {
        group.clients.put(id, client);
        ZkGroupMember member = ZkGroupMember.onZooKeeper(client, io.zkgroups.registry.ZkLayout.root(),
                GroupMemberConfig.of(group.group, id, Subscription.topics(Map.of(topic, 1))),
                group.tracker.listenerFor(id, () -> TestGroup.sessionOf(client)));
        group.members.put(id, member);
        return member;
    }

    /** Topic metadata whose next partition-count read blocks until {@link #release()}. */
    private static final class StallingTopicMetadata implements TopicMetadata {
        private final TopicMetadata delegate;
        private final java.util.concurrent.CountDownLatch stalled = new java.util.concurrent.CountDownLatch(1);
        private final java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);
        private volatile boolean armed;

        StallingTopicMetadata(TopicMetadata delegate) {
            this.delegate = delegate;
        }

        void stallNextRead() {
            armed = true;
        }

        boolean awaitStalled(Duration timeout) throws InterruptedException {
            return stalled.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        void release() {
            released.countDown();
        }

        @Override
        public Map<String, Integer> partitionCounts(java.util.Collection<String> topics, Runnable onChange) {
            if (armed) {
                armed = false;
                stalled.countDown();
                try {
                    released.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while stalled", e);
                }
            }
            return delegate.partitionCounts(topics, onChange);
        }

        @Override
        public List<String> topics(Runnable onChange) {
            return delegate.topics(onChange);
        }
    }

    private static Set<TopicAndPartition> ownedBy(TestGroup group, ConsumerId member) {
        Set<TopicAndPartition> owned = new TreeSet<>();
        group.ownerZnodes().forEach((tp, value) -> {
            if (value.equals(member.thread(0).toString())) {
                owned.add(tp);
            }
        });
        return owned;
    }

    private static long sessionOf(TestGroup group, ConsumerId member) {
        return group.observer.members().list(group.group).entries().stream()
                .filter(m -> m.id().equals(member)).map(Member::ephemeralOwner).findFirst()
                .orElseThrow(() -> new AssertionError(member + " is not registered"));
    }

    /** One event line of {@link MemberProcessMain}: {@code KIND session nanos partitions}. */
    record Line(String kind, String session, long nanos, Set<TopicAndPartition> partitions) {
        static Line parse(String text) {
            String[] f = text.split(" ");
            if (f.length != 4) {
                throw new IllegalArgumentException("not an event line: " + text);
            }
            Set<TopicAndPartition> partitions = new TreeSet<>();
            if (!f[3].equals("-")) {
                for (String tp : f[3].split(",")) {
                    int slash = tp.lastIndexOf('/');
                    partitions.add(TopicAndPartition.of(tp.substring(0, slash), Integer.parseInt(tp.substring(slash + 1))));
                }
            }
            return new Line(f[0], f[1], Long.parseLong(f[2]), partitions);
        }
    }

    /** {@link MemberProcessMain} in a child JVM with this JVM's classpath; stdout lines are collected. */
    static final class Child implements AutoCloseable {
        private final ChildJvm jvm;
        private final Path stderr;
        private final ChildOutput stdout;

        private Child(ChildJvm jvm, Path stderr) {
            this.jvm = jvm;
            this.stderr = stderr;
            this.stdout = jvm.output();
        }

        static Child start(String connect, String group, String name, String topic, int sessionMs) throws IOException {
            Path dir = Path.of("target", "frozen-member").toAbsolutePath();
            Files.createDirectories(dir);
            Path stderr = dir.resolve(name + "-" + ProcessHandle.current().pid() + "-" + CHILDREN.incrementAndGet() + ".stderr.log");
            ChildJvm jvm = ChildJvm.builder("child-" + name, MemberProcessMain.class.getName())
                    .heapMb(128).jvmOptions(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"))
                    .args(List.of(connect, group, name, topic, Integer.toString(sessionMs)))
                    .stderrTo(stderr)
                    .start();
            return new Child(jvm, stderr);
        }

        /** Sends a signal with kill(1): STOP, CONT, KILL, ... */
        void signal(String signal) {
            jvm.signal(signal);
        }

        /** True while the process is stopped by a signal (state T in /proc/PID/stat). */
        boolean isStopped() throws IOException {
            String stat = Files.readString(Path.of("/proc", Long.toString(jvm.pid()), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("T");
        }

        void send(String line) {
            jvm.send(line);
        }

        List<String> lines() {
            return stdout.lines();
        }

        /** Waits for a line at {@code from} or later that matches; returns its index. */
        int awaitLine(int from, Predicate<String> matcher, String what) throws InterruptedException {
            int index = stdout.awaitLine(from, matcher, WAIT);
            if (index < 0) {
                List<String> lines = stdout.lines();
                throw new AssertionError((stdout.isClosed() ? "the child exited" : "timed out") + " waiting for " + what
                        + "\n--- last lines ---\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()))
                        + "\n--- stderr " + stderr + " ---\n" + tail(stderr));
            }
            return index;
        }

        private static String tail(Path file) {
            try {
                String text = Files.readString(file, StandardCharsets.UTF_8);
                return text.substring(Math.max(0, text.length() - 4_000));
            } catch (IOException e) {
                return "(unreadable: " + e + ")";
            }
        }

        @Override
        public void close() throws Exception {
            if (jvm.isAlive()) {
                signal("CONT");
                try {
                    send("close");
                } catch (UncheckedIOException gone) {
                    // it is going anyway
                }
                jvm.awaitTermination(Duration.ofSeconds(10));
            }
            stdout.awaitClosed(Duration.ofSeconds(5));
        }
    }
}
