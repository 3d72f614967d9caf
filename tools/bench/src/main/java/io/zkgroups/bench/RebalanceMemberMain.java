package io.zkgroups.bench;

import io.zkgroups.rebalancer.group.ZkGroupMember;
import io.zkgroups.rebalancer.group.GroupMemberConfig;
import io.zkgroups.rebalancer.group.MemberClients;
import io.zkgroups.rebalancer.group.MemberHealth;
import io.zkgroups.rebalancer.group.MembershipListener;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.security.ZkClientSecurity;
import io.zkgroups.testing.StandardInput;
import org.apache.curator.framework.CuratorFramework;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.channels.AsynchronousCloseException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One {@link ZkGroupMember} in its own JVM, driven by {@link RebalanceBench} over stdin/stdout.
 *
 * <pre>
 * RebalanceMemberMain CONNECT GROUP NAME TOPIC SESSION_MS STRATEGY DEBOUNCE_MS
 * </pre>
 * It connects, builds the member without starting it and prints {@code READY}; then it obeys
 * {@code start} (or starts at once with {@code -Dbench.autostart=true}) and {@code leave} (close the member and exit; end of stdin does the same). Events, one per line,
 * stamped with {@code System.nanoTime()} (CLOCK_MONOTONIC: comparable across processes of one machine):
 * <pre>
 * READY &lt;nanos&gt; &lt;cpu&gt;
 * STARTING &lt;nanos&gt;                               right before ZkGroupMember.start()
 * STATE &lt;nanos&gt; &lt;state&gt; &lt;generation&gt; &lt;p,p,...|-&gt; &lt;cpu&gt;   whenever state, generation or owned partitions
 *                                              change; cpu: CPU nanos of all of the JVM's live threads when printed
 * LEAVING &lt;nanos&gt; / LEFT &lt;nanos&gt;                 around ZkGroupMember.close()
 * </pre>
 * The STATE lines come from {@link ZkGroupMember#addHealthListener}: stamped on the member's event loop the
 * moment its health changes, printed from another thread. (An earlier version polled {@code health()} every
 * millisecond; the poll cost each idle member JVM ~6 % of a core, 60 % of one of the machine's two cores for 10
 * members, and slowed what it measured.)
 */
public final class RebalanceMemberMain {

    private static final int WARM_UP_ROUNDS = Integer.getInteger("bench.warmup.rounds", 150);
    /** Start the member as soon as it is connected, without waiting for {@code start} (a burst of fresh processes). */
    private static final boolean AUTO_START = Boolean.getBoolean("bench.autostart");

    private RebalanceMemberMain() {
    }

    /**
     * Warms the JVM up on the paths a measured rebalance takes, in a throw-away group of two members (the second
     * on a client of its own): join alone, a second member joins (revoke, release, wait for the previous owner,
     * claim), the first leaves (the second claims it all), the second leaves. What is measured afterwards is the
     * protocol, not class loading and the JIT of a JVM that has just started: as in a JMH warm-up, the rounds run until
     * the rebalance code is compiled (a method is compiled after a few hundred calls; one round makes a handful).
     */
    private static void warmUp(CuratorFramework client, String connect, int sessionMs, GroupMemberConfig config,
                               String group, String name, String topic) throws InterruptedException {
        CuratorFramework second = newClient(connect, sessionMs);
        try {
            for (int round = 0; round < WARM_UP_ROUNDS; round++) {
                ZkGroupMember first = warmMember(client, config, group, name);
                first.start();
                await(first, h -> h.isStable() && h.generation() >= 1);
                ZkGroupMember other = warmMember(second, config, group, name + "-other");
                other.start();
                await(other, h -> h.isStable() && h.generation() >= 1);
                await(first, h -> h.isStable() && h.generation() >= 2);
                first.close();
                await(other, h -> h.isStable() && h.generation() >= 2);
                other.close();
            }
        } finally {
            second.close();
        }
    }

    private static ZkGroupMember warmMember(CuratorFramework client, GroupMemberConfig config, String group, String name) {
        GroupMemberConfig warm = GroupMemberConfig.of(group, ConsumerId.ofOverride(group, name),
                        config.subscription()).withAssignmentStrategy(config.assignmentStrategy())
                .withDebounce(config.debounce());
        return ZkGroupMember.onZooKeeper(client, ZkLayout.root(), warm, MembershipListener.NONE);
    }

    /** Waits, on the member's own health notifications, until {@code condition} holds for its health. */
    private static void await(ZkGroupMember member, java.util.function.Predicate<MemberHealth> condition)
            throws InterruptedException {
        java.util.concurrent.CountDownLatch met = new java.util.concurrent.CountDownLatch(1);
        java.util.function.Consumer<MemberHealth> listener = health -> {
            if (condition.test(health)) {
                met.countDown();
            }
        };
        member.addHealthListener(listener);
        try {
            if (!condition.test(member.health()) && !met.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("warm-up member " + member.consumerId() + " stuck: " + member.health());
            }
        } finally {
            member.removeHealthListener(listener);
        }
    }

    static CuratorFramework newClient(String connect, int sessionMs) throws InterruptedException {
        return connected(startClient(connect, sessionMs), connect);
    }

    /** A started client, connecting in the background, set up as the consumer's own ({@link MemberClients}). */
    static CuratorFramework startClient(String connect, int sessionMs) {
        CuratorFramework client = MemberClients.builder(connect, sessionMs, Math.min(sessionMs, 15_000),
                ZkClientSecurity.none()).build();
        client.start();
        return client;
    }

    /** {@code client} once connected (within 60 s, else an exception naming {@code connect}). */
    static CuratorFramework connected(CuratorFramework client, String connect) throws InterruptedException {
        if (!client.blockUntilConnected(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no connection to " + connect);
        }
        return client;
    }

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    /** CPU time of every live thread of this JVM, in nanoseconds (process CPU time has only 10 ms resolution). */
    static long cpuNanos() {
        long sum = 0;
        for (long id : THREADS.getAllThreadIds()) {
            long t = THREADS.getThreadCpuTime(id);
            if (t > 0) {
                sum += t;
            }
        }
        return sum;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 7) {
            System.err.println("usage: RebalanceMemberMain CONNECT GROUP NAME TOPIC SESSION_MS STRATEGY DEBOUNCE_MS");
            System.exit(2);
        }
        String connect = args[0];
        String group = args[1];
        String name = args[2];
        String topic = args[3];
        int sessionMs = Integer.parseInt(args[4]);
        String strategy = args[5];
        long debounceMs = Long.parseLong(args[6]);

        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        CuratorFramework client;
        try {
            client = newClient(connect, sessionMs);
        } catch (IllegalStateException e) {
            out.println("ERROR " + e.getMessage());
            System.exit(2);
            return;
        }
        GroupMemberConfig config = GroupMemberConfig.of(group, ConsumerId.ofOverride(group, name),
                        Subscription.topics(Map.of(topic, 1)))
                .withAssignmentStrategy(strategy)
                .withDebounce(Duration.ofMillis(debounceMs));
        if (WARM_UP_ROUNDS > 0) {
            warmUp(client, connect, sessionMs, config, group + "-warmup-" + name, name, topic);
        }
        ZkGroupMember member = ZkGroupMember.onZooKeeper(client, ZkLayout.root(), config, MembershipListener.NONE);

        // Changes are stamped where they happen and printed from another thread, off the member's event loop.
        ExecutorService printer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "state-printer");
            t.setDaemon(true);
            return t;
        });
        String[] last = {""};
        member.addHealthListener(health -> {
            long at = System.nanoTime();
            printer.execute(() -> {
                long cpu = cpuNanos(); // here, not on the member's event loop: a dozen syscalls
                String now = health.state() + " " + health.generation() + " " + (health.owned().isEmpty() ? "-"
                        : health.owned().stream().map(TopicAndPartition::partition).map(String::valueOf)
                        .collect(Collectors.joining(",")));
                if (!Objects.equals(now, last[0])) {
                    last[0] = now;
                    out.println("STATE " + at + " " + now + " " + cpu);
                }
            });
        });

        out.println("READY " + System.nanoTime() + " " + cpuNanos());
        if (AUTO_START) {
            out.println("STARTING " + System.nanoTime());
            member.start();
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(StandardInput.closedAtExit(), StandardCharsets.UTF_8));
        String line;
        try {
            while ((line = in.readLine()) != null) {
                if (line.equals("start") && !AUTO_START) {
                    out.println("STARTING " + System.nanoTime());
                    member.start();
                } else if (line.equals("leave")) {
                    break;
                }
            }
        } catch (AsynchronousCloseException exiting) {
            return; // the JVM exits (SIGTERM): its hooks closed stdin
        }
        out.println("LEAVING " + System.nanoTime());
        member.close();
        out.println("LEFT " + System.nanoTime());
        printer.shutdown();
        printer.awaitTermination(5, TimeUnit.SECONDS);
        client.close();
        System.exit(0);
    }
}
