package io.zkgroups.legacy;

import kafka.consumer.ConsumerConfig;
import kafka.javaapi.consumer.ZookeeperConsumerConnector;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Several real 0.8.2.2 {@code ZookeeperConsumerConnector}s in one JVM, each with its own ZooKeeper session (as in
 * applications that run one connector per process), all without a fetcher: the ZooKeeper protocol only (register,
 * rebalance, claim owners). For benchmarks of many members on a small machine; {@link LegacyConsumerMain} is the
 * one-connector driver that delivers messages.
 *
 * <pre>
 * LegacyConnectorsMain ZK_CONNECT GROUP TOPIC FIRST COUNT SESSION_MS STRATEGY BACKOFF_MS RETRIES [WIDTH]
 * </pre>
 * Connectors are named (consumer.id) {@code c<FIRST>} to {@code c<FIRST+COUNT-1>}, the numbers zero-padded to WIDTH
 * digits if given; each is created and subscribed
 * to TOPIC with one stream on a thread of its own, all at once. Events on stdout: {@code CREATED <name>} when a
 * connector's createMessageStreams returned, {@code ERROR <name> <text>} when it threw. Commands on stdin:
 * {@code shutdown <name>} (then {@code CLOSED <name>}), {@code exit} (shuts every connector down and exits; end of
 * stdin does the same).
 */
public final class LegacyConnectorsMain {

    private LegacyConnectorsMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        if (args.length != 9 && args.length != 10) {
            out.println("ERROR usage: LegacyConnectorsMain ZK_CONNECT GROUP TOPIC FIRST COUNT SESSION_MS STRATEGY "
                    + "BACKOFF_MS RETRIES [WIDTH]");
            System.exit(2);
        }
        final String topic = args[2];
        int first;
        int count;
        int width;
        try {
            first = Integer.parseInt(args[3]);
            count = Integer.parseInt(args[4]);
            width = args.length == 10 ? Integer.parseInt(args[9]) : 0;
            Integer.parseInt(args[5]);
            Long.parseLong(args[7]);
            Integer.parseInt(args[8]);
        } catch (NumberFormatException e) {
            out.println("ERROR FIRST, COUNT, SESSION_MS, BACKOFF_MS, RETRIES and WIDTH must be numbers: " + e.getMessage());
            System.exit(2);
            return;
        }
        final Map<String, ZookeeperConsumerConnector> connectors = new ConcurrentHashMap<>();
        for (int i = first; i < first + count; i++) {
            final String name = width > 0 ? String.format("c%0" + width + "d", i) : "c" + i;
            Properties props = new Properties();
            props.setProperty("zookeeper.connect", args[0]);
            props.setProperty("group.id", args[1]);
            props.setProperty("consumer.id", name);
            props.setProperty("zookeeper.session.timeout.ms", args[5]);
            props.setProperty("zookeeper.connection.timeout.ms", "60000"); // connecting only: a loaded machine
            props.setProperty("partition.assignment.strategy", args[6]);
            props.setProperty("rebalance.backoff.ms", args[7]);
            props.setProperty("rebalance.max.retries", args[8]);
            props.setProperty("auto.commit.enable", "false");
            final ConsumerConfig config = new ConsumerConfig(props);
            Thread t = new Thread(() -> {
                try {
                    ZookeeperConsumerConnector connector = new ZookeeperConsumerConnector(config, false);
                    connectors.put(name, connector);
                    connector.createMessageStreams(Collections.singletonMap(topic, 1));
                    out.println("CREATED " + name);
                } catch (Throwable e) {
                    out.println("ERROR " + name + " " + String.valueOf(e).replace('\n', ' '));
                }
            }, "connector-" + name);
            t.setDaemon(true);
            t.start();
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        String line;
        while ((line = in.readLine()) != null && !line.equals("exit")) {
            if (line.startsWith("shutdown ")) {
                String name = line.substring("shutdown ".length());
                ZookeeperConsumerConnector connector = connectors.remove(name);
                if (connector == null) {
                    out.println("ERROR " + name + " no such connector here");
                } else {
                    connector.shutdown();
                    out.println("CLOSED " + name);
                }
            }
        }
        for (ZookeeperConsumerConnector connector : connectors.values()) {
            connector.shutdown();
        }
        System.exit(0);
    }
}
