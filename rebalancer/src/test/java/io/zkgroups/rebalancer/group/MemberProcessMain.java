package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.StandardInput;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.channels.AsynchronousCloseException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One {@link ZkGroupMember} in a JVM of its own, for tests that must stop a whole process ({@code SIGSTOP}) or
 * kill it. Started by {@link FrozenMemberIT} with the test's own classpath.
 *
 * <pre>
 * MemberProcessMain CONNECT GROUP NAME TOPIC SESSION_TIMEOUT_MS [DELIVERY_PERIOD_MS]
 * </pre>
 *
 * Prints one event per line on stdout (logs go to stderr):
 * <pre>
 * STARTED &lt;consumer id&gt;
 * ASSIGNED|REVOKED|LOST &lt;session hex&gt; &lt;nanoTime&gt; &lt;topic/partition,...&gt;   listener calls
 * DELIVER &lt;session hex&gt; &lt;nanoTime&gt; &lt;topic/partition,...&gt;
 *     what a consumer would hand out now: printed every DELIVERY_PERIOD_MS (default 3) while
 *     {@link ZkGroupMember#canDeliver()} holds; the session is the one the ownership lease is on and
 *     nanoTime is taken <em>before</em> the check, so it is an upper bound of the moment of the decision
 * MARK &lt;nanoTime&gt;                                   the answer to the stdin line RESUMED
 * CLOSED                                             after the stdin line close (or end of stdin)
 * </pre>
 * The partitions in DELIVER lines are the ones the listener was given and has not been told to give up,
 * as a consumer application would track them. {@code System.nanoTime()} is CLOCK_MONOTONIC on Linux, so the
 * test can compare these stamps with its own.
 */
public final class MemberProcessMain {

    private MemberProcessMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: MemberProcessMain CONNECT GROUP NAME TOPIC SESSION_TIMEOUT_MS [DELIVERY_PERIOD_MS]");
            System.exit(2);
        }
        String connect = args[0];
        String group = args[1];
        String name = args[2];
        String topic = args[3];
        int sessionTimeoutMs = Integer.parseInt(args[4]);
        long deliveryPeriodMs = args.length > 5 ? Long.parseLong(args[5]) : 3;

        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(connect)
                .sessionTimeoutMs(sessionTimeoutMs)
                .connectionTimeoutMs(5_000)
                .retryPolicy(new ExponentialBackoffRetry(50, 10, 500))
                .build();
        client.start();
        if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) {
            out.println("ERROR no connection to " + connect);
            System.exit(2);
        }

        SortedSet<TopicAndPartition> mine = new ConcurrentSkipListSet<>();
        MembershipListener listener = new MembershipListener() {
            @Override
            public void onRevoked(Set<TopicAndPartition> partitions) {
                mine.removeAll(partitions);
                out.println("REVOKED " + hex(currentSession(client)) + " " + System.nanoTime() + " " + text(partitions));
            }

            @Override
            public void onLost(Set<TopicAndPartition> partitions) {
                mine.removeAll(partitions);
                out.println("LOST " + hex(currentSession(client)) + " " + System.nanoTime() + " " + text(partitions));
            }

            @Override
            public void onAssigned(java.util.SortedMap<TopicAndPartition, OwnershipFence.Grant> grants) {
                out.println("ASSIGNED " + hex(currentSession(client)) + " " + System.nanoTime() + " " + text(grants.keySet()));
                mine.addAll(grants.keySet());
            }
        };
        GroupMemberConfig config = GroupMemberConfig.of(group, ConsumerId.ofOverride(group, name),
                Subscription.topics(Map.of(topic, 1)));
        ZkGroupMember member = ZkGroupMember.onZooKeeper(client, ZkLayout.root(), config, listener);

        ScheduledExecutorService delivery = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "delivery");
            thread.setDaemon(true);
            return thread;
        });
        delivery.scheduleWithFixedDelay(() -> {
            try {
                long now = System.nanoTime();
                long session = member.lease().session();
                if (!mine.isEmpty() && member.canDeliver() && member.lease().session() == session) {
                    // ArrayList copies through toArray(), safe against concurrent changes (TreeSet's copy is not)
                    out.println("DELIVER " + hex(session) + " " + now + " " + text(new TreeSet<>(new ArrayList<>(mine))));
                }
            } catch (RuntimeException e) {
                e.printStackTrace(); // a periodic task that throws is never run again: log and go on
            }
        }, 0, deliveryPeriodMs, TimeUnit.MILLISECONDS);

        member.start();
        out.println("STARTED " + member.consumerId());

        BufferedReader in = new BufferedReader(new InputStreamReader(StandardInput.closedAtExit(), StandardCharsets.UTF_8));
        String line;
        try {
            while ((line = in.readLine()) != null) {
                if (line.equals("RESUMED")) {
                    out.println("MARK " + System.nanoTime());
                } else if (line.equals("close")) {
                    break;
                }
            }
        } catch (AsynchronousCloseException exiting) {
            return; // the JVM exits (SIGTERM): its hooks closed stdin
        }
        delivery.shutdownNow();
        member.close();
        client.close();
        out.println("CLOSED");
        System.exit(0);
    }

    private static long currentSession(CuratorFramework client) {
        try {
            return client.getZookeeperClient().getZooKeeper().getSessionId();
        } catch (Exception e) {
            return 0;
        }
    }

    static String hex(long session) {
        return Long.toHexString(session);
    }

    static String text(Set<TopicAndPartition> partitions) {
        return partitions.isEmpty() ? "-" : partitions.stream().sorted()
                .map(tp -> tp.topic() + "/" + tp.partition()).collect(Collectors.joining(","));
    }
}
