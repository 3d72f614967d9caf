package io.zkgroups.bench;

import io.zkgroups.rebalancer.group.ZkGroupMember;
import io.zkgroups.rebalancer.group.GroupMemberConfig;
import io.zkgroups.rebalancer.group.MembershipListener;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.registry.server.ServerCapabilities;
import io.zkgroups.registry.server.ServerGeneration;
import io.zkgroups.testing.StandardInput;
import org.apache.curator.framework.CuratorFramework;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.channels.AsynchronousCloseException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Several {@link ZkGroupMember}s in one JVM, each with its own Curator client and so its own ZooKeeper session (as
 * each 0.8.2.2 connector has its own), driven by {@link ScaleBench} over stdin/stdout: many members on a machine of
 * two cores without a JVM each.
 *
 * <pre>
 * ScaleMemberMain CONNECT GROUP FIRST COUNT TOPIC SESSION_MS STRATEGY DEBOUNCE_MS AUTOSTART [WIDTH]
 * </pre>
 * Members are named {@code m<FIRST>} to {@code m<FIRST+COUNT-1>}, the numbers zero-padded to WIDTH digits if given. It
 * connects every client side by side, starts each member as soon as its client is connected if AUTOSTART is
 * {@code true}, and prints {@code READY}. Commands: {@code start} (every member not started
 * yet), {@code leave NAME} (closes that member), {@code exit}. Events, stamped with {@code System.nanoTime()}:
 * <pre>
 * READY &lt;nanos&gt; &lt;cpu&gt;
 * STARTING &lt;nanos&gt;                                       before the clients connect (AUTOSTART) or start
 * STATE &lt;name&gt; &lt;nanos&gt; &lt;state&gt; &lt;generation&gt; &lt;p,p,...|-&gt; &lt;cpu&gt;   a member's health changed
 * LEAVING &lt;name&gt; &lt;nanos&gt; / LEFT &lt;name&gt; &lt;nanos&gt;           around ZkGroupMember.close()
 * </pre>
 * cpu: the JVM's CPU time in nanos when the line was printed (one read of the process's time: summing fifty members'
 * threads one by one for every line cost the host seconds of CPU per rebalance at 1,000 members).
 */
public final class ScaleMemberMain {

    /** {@code -Dbench.zookeeper.generation=V3_5}: members take the server as that release (no persistent watches). */
    private static final String GENERATION = System.getProperty("bench.zookeeper.generation");

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private ScaleMemberMain() {
    }

    private static long processCpuNanos() {
        return OS.getProcessCpuTime();
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 9 && args.length != 10) {
            System.err.println("usage: ScaleMemberMain CONNECT GROUP FIRST COUNT TOPIC SESSION_MS STRATEGY DEBOUNCE_MS AUTOSTART [WIDTH]");
            System.exit(2);
        }
        String connect = args[0];
        String group = args[1];
        int first = Integer.parseInt(args[2]);
        int count = Integer.parseInt(args[3]);
        String topic = args[4];
        int sessionMs = Integer.parseInt(args[5]);
        String strategy = args[6];
        long debounceMs = Long.parseLong(args[7]);
        boolean autoStart = Boolean.parseBoolean(args[8]);
        int width = args.length == 10 ? Integer.parseInt(args[9]) : 0;

        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        ExecutorService printer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "state-printer");
            t.setDaemon(true);
            return t;
        });
        Map<String, ZkGroupMember> members = new LinkedHashMap<>();
        List<CuratorFramework> clients = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            clients.add(RebalanceMemberMain.startClient(connect, sessionMs)); // connecting side by side
        }
        if (autoStart) {
            out.println("STARTING " + System.nanoTime());
        }
        for (int i = first; i < first + count; i++) {
            String name = ScaleHost.name("m", i, width);
            CuratorFramework client = clients.get(i - first);
            try {
                RebalanceMemberMain.connected(client, connect);
            } catch (IllegalStateException e) {
                out.println("ERROR " + name + ": " + e.getMessage());
                System.exit(2);
                return;
            }
            if (GENERATION != null) {
                ServerCapabilities.declare(client, ServerGeneration.valueOf(GENERATION));
            }
            GroupMemberConfig config = GroupMemberConfig.of(group, ConsumerId.ofOverride(group, name),
                            Subscription.topics(Map.of(topic, 1)))
                    .withAssignmentStrategy(strategy)
                    .withDebounce(Duration.ofMillis(debounceMs));
            ZkGroupMember member = ZkGroupMember.onZooKeeper(client, ZkLayout.root(), config, MembershipListener.NONE);
            String[] last = {""};
            member.addHealthListener(health -> {
                long at = System.nanoTime();
                printer.execute(() -> {
                    String now = health.state() + " " + health.generation() + " " + (health.owned().isEmpty() ? "-"
                            : health.owned().stream().map(TopicAndPartition::partition).map(String::valueOf)
                            .collect(Collectors.joining(",")));
                    if (!Objects.equals(now, last[0])) {
                        last[0] = now;
                        out.println("STATE " + name + " " + at + " " + now + " " + processCpuNanos());
                    }
                });
            });
            members.put(name, member);
            if (autoStart) {
                member.start(); // as soon as its session is there, as a process of its own would
            }
        }
        boolean started = autoStart;
        out.println("READY " + System.nanoTime() + " " + processCpuNanos());
        BufferedReader in = new BufferedReader(new InputStreamReader(StandardInput.closedAtExit(), StandardCharsets.UTF_8));
        String line;
        try {
            while ((line = in.readLine()) != null) {
                if (line.equals("start") && !started) {
                    started = true;
                    out.println("STARTING " + System.nanoTime());
                    members.values().forEach(ZkGroupMember::start);
                } else if (line.startsWith("leave ")) {
                    String name = line.substring("leave ".length());
                    ZkGroupMember member = members.remove(name);
                    if (member == null) {
                        out.println("ERROR no member " + name + " here");
                    } else {
                        out.println("LEAVING " + name + " " + System.nanoTime());
                        member.close();
                        out.println("LEFT " + name + " " + System.nanoTime());
                    }
                } else if (line.equals("exit")) {
                    break;
                }
            }
        } catch (AsynchronousCloseException exiting) {
            return; // SIGTERM: its hooks closed stdin
        }
        members.values().forEach(ZkGroupMember::close);
        printer.shutdown();
        printer.awaitTermination(5, TimeUnit.SECONDS);
        clients.forEach(CuratorFramework::close);
        System.exit(0);
    }
}
