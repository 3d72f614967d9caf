package io.zkgroups.bench;

import io.zkgroups.embedded.EmbeddedKafka;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.testing.TestZooKeeper;
import io.zkgroups.tool.Main;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code zkgroups migrate execute} and {@code migrate verify} for G groups × P partitions (ZooKeeper → Kafka), next
 * to the raw Admin-API ceiling measured in the same run: {@code alterConsumerGroupOffsets} of the same offsets
 * (one request per group; sequential, and with as many requests in flight as the CLI's --parallelism), and batched
 * {@code listConsumerGroupOffsets} (what verify needs from Kafka).
 * <p>
 * One loopback ZooKeeper ({@code TestZooKeeper}) and one ZooKeeper-mode Kafka 3.9 broker, both in this JVM; the
 * CLI runs in this JVM too, through {@link Main#run} (no JVM start-up in the figures).
 * Usage: {@code MigrateBench [--groups N] [--partitions N] [--parallelism N] [--batch-size N]}.
 */
public final class MigrateBench {

    @Command(name = "MigrateBench", mixinStandardHelpOptions = true, sortOptions = false,
            description = "zkgroups migrate execute and verify of G groups x P partitions, and the Admin-API ceiling.")
    static final class Options {
        @Option(names = "--groups",
                description = "Groups, each with an offset per partition (default: ${DEFAULT-VALUE}).")
        int groups = 1000;

        @Option(names = "--partitions", description = "Partitions of the one topic (default: ${DEFAULT-VALUE}).")
        int partitions = 50;

        @Option(names = "--parallelism", description = "The CLI's --parallelism, and the ceiling's groups in flight "
                + "(default: ${DEFAULT-VALUE}).")
        int parallelism = 8;

        @Option(names = "--batch-size", description = "The CLI's --batch-size, and the ceiling's groups per "
                + "listConsumerGroupOffsets (default: ${DEFAULT-VALUE}).")
        int batchSize = 50;
    }

    public static void main(String[] args) throws Exception {
        Options options = BenchCommand.parse(new Options(), args);
        int groups = options.groups;
        int partitions = options.partitions;
        int parallelism = options.parallelism;
        int batch = options.batchSize;
        System.out.printf("MigrateBench: %d groups x %d partitions = %d offsets, --parallelism %d --batch-size %d%n",
                groups, partitions, groups * partitions, parallelism, batch);

        try (TestZooKeeper zk = TestZooKeeper.start();
             EmbeddedKafka kafka = EmbeddedKafka.startZooKeeperMode(zk.connectString() + "/bench")) {
            kafka.createTopic("bench", partitions);
            CuratorFramework curator = zk.newClient(30_000);
            ZkRegistry registry = new ZkRegistry(curator, ZkLayout.withChroot("/bench"));
            List<String> names = new ArrayList<>();
            Map<String, Map<TopicAndPartition, Long>> offsets = new LinkedHashMap<>();
            long t0 = System.nanoTime();
            for (int g = 0; g < groups; g++) {
                String name = String.format("bench-%04d", g);
                Map<TopicAndPartition, Long> o = new TreeMap<>();
                for (int p = 0; p < partitions; p++) {
                    o.put(new TopicAndPartition("bench", p), 1_000_000L * g + p);
                }
                registry.offsets().commit(name, o);
                names.add(name);
                offsets.put(name, o);
            }
            report("seed ZooKeeper (OffsetRegistry.commit per group)", t0, groups, partitions);

            String zkConnect = zk.connectString() + "/bench";
            String[] common = {"--zookeeper", zkConnect, "--all-groups", "--parallelism", String.valueOf(parallelism),
                    "--batch-size", String.valueOf(batch), "--timeout", "30s"};

            long t1 = System.nanoTime();
            int code = cli("migrate", "execute", common);
            report("zkgroups migrate execute --all-groups (exit " + code + ")", t1, groups, partitions);
            check(code == 0, "migrate execute exited " + code);

            long t2 = System.nanoTime();
            code = cli("migrate", "verify", common);
            report("zkgroups migrate verify --all-groups (exit " + code + ")", t2, groups, partitions);
            check(code == 0, "migrate verify exited " + code);

            long t3 = System.nanoTime();
            code = cli("migrate", "execute", common);
            report("zkgroups migrate execute again (all in sync, exit " + code + ")", t3, groups, partitions);

            Admin admin = kafka.admin();
            long t4 = System.nanoTime();
            for (String g : names) {
                alter(admin, "raw1-" + g, offsets.get(g)).get(30, TimeUnit.SECONDS);
            }
            report("ceiling: alterConsumerGroupOffsets, one group at a time", t4, groups, partitions);

            long t5 = System.nanoTime();
            Deque<KafkaFuture<Void>> inFlight = new ArrayDeque<>();
            for (String g : names) {
                if (inFlight.size() == parallelism) {
                    inFlight.removeFirst().get(30, TimeUnit.SECONDS);
                }
                inFlight.addLast(alter(admin, "rawN-" + g, offsets.get(g)));
            }
            for (KafkaFuture<Void> f : inFlight) {
                f.get(30, TimeUnit.SECONDS);
            }
            report("ceiling: alterConsumerGroupOffsets, " + parallelism + " groups in flight", t5, groups, partitions);

            long t6 = System.nanoTime();
            int read = 0;
            for (int from = 0; from < names.size(); from += batch) {
                Map<String, ListConsumerGroupOffsetsSpec> specs = new LinkedHashMap<>();
                names.subList(from, Math.min(names.size(), from + batch)).forEach(g -> specs.put(g, new ListConsumerGroupOffsetsSpec()));
                for (Map<TopicPartition, OffsetAndMetadata> m : admin.listConsumerGroupOffsets(specs).all().get(30, TimeUnit.SECONDS).values()) {
                    read += m.size();
                }
            }
            report("ceiling: listConsumerGroupOffsets, " + batch + " groups per request (" + read + " offsets)", t6, groups,
                    partitions);
        }
    }

    private static KafkaFuture<Void> alter(Admin admin, String group, Map<TopicAndPartition, Long> offsets) {
        Map<TopicPartition, OffsetAndMetadata> request = new HashMap<>();
        offsets.forEach((tp, o) -> request.put(new TopicPartition(tp.topic(), tp.partition()), new OffsetAndMetadata(o)));
        return admin.alterConsumerGroupOffsets(group, request).all();
    }

    private static int cli(String command, String sub, String[] common) {
        String[] args = new String[common.length + 2];
        args[0] = command;
        args[1] = sub;
        System.arraycopy(common, 0, args, 2, common.length);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(OutputStream.nullOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        if (code != 0) {
            System.out.println("  stderr: " + err.toString(StandardCharsets.UTF_8).strip());
        }
        return code;
    }

    private static void report(String what, long startNanos, int groups, int partitions) {
        double s = (System.nanoTime() - startNanos) / 1e9;
        System.out.printf("| %s | %.2f s | %.0f groups/s | %.0f offsets/s |%n", what, s, groups / s, groups * (double) partitions / s);
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new IllegalStateException(message);
        }
    }
}
