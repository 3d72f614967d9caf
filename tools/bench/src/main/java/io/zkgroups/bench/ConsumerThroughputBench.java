package io.zkgroups.bench;

import io.zkgroups.rebalancer.consumer.ZkConsumerConfig;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.testing.TestZooKeeper;
import kafka.server.KafkaConfig;
import kafka.server.KafkaServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Time;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Records/s through {@link ZkGroupConsumer} against a plain {@code KafkaConsumer} in {@code assign()} mode (its
 * ceiling: ZkGroupConsumer fetches through exactly such a consumer), in one run, on one broker.
 * <p>
 * Setup (untimed): a loopback {@link TestZooKeeper}, one Kafka 3.9 broker in ZooKeeper mode <b>in this JVM</b>
 * (so broker and consumer share the machine's cores, alike for both contenders), a topic of {@code partitions}
 * partitions (default 16) filled with {@code records} records (default 1,000,000) of {@code size} bytes (default
 * 20, no key), spread evenly.
 * <p>
 * Each run reads the whole topic from the beginning with a fresh consumer and byte-array deserializers, touching
 * every record (offset and value length go into a checksum):
 * <ul>
 *   <li><b>raw</b>: {@code KafkaConsumer}, no group, {@code assign(all)} + {@code seekToBeginning};</li>
 *   <li><b>zk</b>: {@code ZkGroupConsumer} with a fresh group id, {@code auto.offset.reset=smallest}, 0.8's default
 *       auto-commit interval (60 s), {@code subscribe(topic)}: registers, rebalances, claims all partitions.</li>
 * </ul>
 * Both with the same client properties — the raw consumer gets exactly those ZkGroupConsumer gives the consumer it
 * wraps, {@code max.poll.records} (default 500) and 0.8's {@code fetch.wait.max.ms} 100 translated among them — and
 * {@code poll(100 ms)}. Three figures per run:
 * <ul>
 *   <li><b>delivery</b> = records after the first batch / wall time from the first batch to the last record (the
 *       per-poll path, which is where ZkGroupConsumer adds work);</li>
 *   <li><b>end-to-end</b> = all records / wall time from just before {@code subscribe}/the first poll to the last
 *       record (includes connecting, the group join for zk, the offset lookup; the time to the first batch is
 *       printed separately);</li>
 *   <li><b>per cpu-s</b> = records after the first batch / CPU time of the polling thread over the same stretch as
 *       delivery. Without a Kafka group the classic KafkaConsumer does all its fetching on the polling thread, so
 *       this is the whole consumer-side cost, and it is far less sensitive to other load on a shared machine than
 *       wall time (the broker's threads are not counted: the same work for both).</li>
 * </ul>
 * Construction and {@code close()} are not timed.
 * <p>
 * The contenders alternate, and the one that goes first alternates by round, so that drift on a shared machine hits
 * both alike. The first {@code warmup} rounds (default 2) are not counted. Prints every round, the medians, and the
 * median of the per-round zk/raw ratios (robust against load drift).
 * <p>
 * Usage: {@code ConsumerThroughputBench [--records N] [--partitions N] [--size BYTES] [--rounds N] [--warmup N]
 * [--max-poll-records N] [--raw-defaults 0|1]} ({@code --help} lists them with their defaults)
 */
public final class ConsumerThroughputBench {

    private static final String TOPIC = "bench";
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final String bootstrap;
    private final String zookeeper;
    private final int records;
    private final int partitions;
    private final int maxPollRecords;
    private final boolean rawDefaults;
    /** The zk contender's zkgroups.max.uncommitted.records; null: its default. */
    private final Integer maxUncommittedRecords;
    private int groups;
    private long checksum;

    private ConsumerThroughputBench(String bootstrap, String zookeeper, int records, int partitions, int maxPollRecords,
                                    boolean rawDefaults, Integer maxUncommittedRecords) {
        this.rawDefaults = rawDefaults;
        this.maxUncommittedRecords = maxUncommittedRecords;
        this.bootstrap = bootstrap;
        this.zookeeper = zookeeper;
        this.records = records;
        this.partitions = partitions;
        this.maxPollRecords = maxPollRecords;
    }

    /**
     * One run: records after the first batch per second of delivery, all records per second end to end, and records
     * after the first batch per CPU second of the polling thread.
     */
    private record Run(double delivery, double endToEnd, double cpu, double firstMillis) {
    }

    /** The options; counts may be written with underscores ({@code --records 2_000_000}). */
    @Command(name = "ConsumerThroughputBench", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Records/s through ZkGroupConsumer against a raw KafkaConsumer in assign() mode.")
    static final class Options {
        @Option(names = "--records", converter = BenchOptionTypes.GroupedIntConverter.class,
                description = "Records in the topic (default: 1_000_000).")
        int records = 1_000_000;

        @Option(names = "--partitions", converter = BenchOptionTypes.GroupedIntConverter.class,
                description = "Partitions of the topic (default: ${DEFAULT-VALUE}).")
        int partitions = 16;

        @Option(names = "--size", paramLabel = "BYTES", converter = BenchOptionTypes.GroupedIntConverter.class,
                description = "Bytes per record value (default: ${DEFAULT-VALUE}).")
        int size = 20;

        @Option(names = "--rounds", converter = BenchOptionTypes.GroupedIntConverter.class,
                description = "Measured rounds (default: ${DEFAULT-VALUE}).")
        int rounds = 9;

        @Option(names = "--warmup", converter = BenchOptionTypes.GroupedIntConverter.class,
                description = "Warm-up rounds before them, not counted (default: ${DEFAULT-VALUE}).")
        int warmup = 2;

        @Option(names = "--max-poll-records", converter = BenchOptionTypes.GroupedIntConverter.class,
                description = "max.poll.records of both contenders (default: ${DEFAULT-VALUE}).")
        int maxPollRecords = 500;

        @Option(names = "--raw-defaults", paramLabel = "0|1", converter = BenchOptionTypes.ZeroOrOneConverter.class,
                description = "1: the raw consumer gets kafka-clients' defaults instead of ZkGroupConsumer's inner "
                        + "consumer's properties (default: ${DEFAULT-VALUE}).")
        int rawDefaults;

        @Option(names = "--max-uncommitted-records", paramLabel = "N",
                converter = BenchOptionTypes.GroupedIntConverter.class,
                description = "zkgroups.max.uncommitted.records of the zk contender, 0: no cap (default: the "
                        + "consumer's default).")
        Integer maxUncommittedRecords;
    }

    public static void main(String[] args) throws Exception {
        Options options = BenchCommand.parse(new Options(), args);
        int records = options.records;
        int partitions = options.partitions;
        int size = options.size;
        int rounds = options.rounds;
        int warmup = options.warmup;
        int maxPollRecords = options.maxPollRecords;
        boolean rawDefaults = options.rawDefaults == 1;

        System.out.printf(Locale.ROOT, "ConsumerThroughputBench: %,d records of %d bytes in %d partitions, "
                + "max.poll.records=%d, zkgroups.max.uncommitted.records=%s, %d measured rounds after %d warm-up rounds, "
                + "broker in this JVM, raw consumer with %s%n",
                records, size, partitions, maxPollRecords,
                options.maxUncommittedRecords == null ? "default" : options.maxUncommittedRecords, rounds, warmup,
                rawDefaults ? "kafka-clients' defaults" : "ZkGroupConsumer's inner consumer's properties");
        System.out.printf(Locale.ROOT, "java %s (%s), %d cores, max heap %d MiB, load average %.2f, args %s%n",
                System.getProperty("java.version"), System.getProperty("java.vm.name"),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                ManagementFactory.getRuntimeMXBean().getInputArguments());

        Path logDir = Files.createTempDirectory("zkgroups-bench-kafka-");
        try (TestZooKeeper zk = TestZooKeeper.start()) {
            KafkaServer broker = startBroker(zk.connectString(), logDir);
            try {
                String bootstrap = "127.0.0.1:" + broker.boundPort(ListenerName.normalised("PLAINTEXT"));
                long fill = System.nanoTime();
                createAndFill(bootstrap, partitions, records, size);
                System.out.printf(Locale.ROOT, "topic filled in %.1f s%n", (System.nanoTime() - fill) / 1e9);
                new ConsumerThroughputBench(bootstrap, zk.connectString(), records, partitions, maxPollRecords, rawDefaults,
                        options.maxUncommittedRecords).measure(rounds, warmup);
            } finally {
                broker.shutdown();
                broker.awaitShutdown();
            }
        } finally {
            deleteRecursively(logDir);
        }
        System.out.printf(Locale.ROOT, "load average at the end %.2f%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private void measure(int rounds, int warmup) {
        Map<String, List<Run>> results = new LinkedHashMap<>();
        results.put("raw", new ArrayList<>());
        results.put("zk", new ArrayList<>());
        List<Double> deliveryRatios = new ArrayList<>();
        List<Double> endToEndRatios = new ArrayList<>();
        List<Double> cpuRatios = new ArrayList<>();
        System.out.println("round  order    raw delivery/s  zk delivery/s  zk/raw   raw end-to-end/s  zk end-to-end/s  zk/raw"
                + "   raw per cpu-s  zk per cpu-s  zk/raw");
        for (int round = 0; round < warmup + rounds; round++) {
            boolean rawFirst = round % 2 == 0;
            Map<String, Run> runs = new HashMap<>();
            for (String contender : rawFirst ? List.of("raw", "zk") : List.of("zk", "raw")) {
                runs.put(contender, contender.equals("raw") ? run(rawConsumer(), false) : run(zkConsumer(), true));
            }
            Run raw = runs.get("raw");
            Run zk = runs.get("zk");
            boolean counted = round >= warmup;
            System.out.printf(Locale.ROOT, "%-6s %-8s %,14.0f %,14.0f  %5.3f   %,16.0f %,16.0f  %5.3f  %,14.0f %,13.0f  %5.3f%n",
                    counted ? String.valueOf(round - warmup + 1) : "w" + (round + 1), rawFirst ? "raw,zk" : "zk,raw",
                    raw.delivery(), zk.delivery(), zk.delivery() / raw.delivery(),
                    raw.endToEnd(), zk.endToEnd(), zk.endToEnd() / raw.endToEnd(),
                    raw.cpu(), zk.cpu(), zk.cpu() / raw.cpu());
            if (counted) {
                results.get("raw").add(raw);
                results.get("zk").add(zk);
                deliveryRatios.add(zk.delivery() / raw.delivery());
                endToEndRatios.add(zk.endToEnd() / raw.endToEnd());
                cpuRatios.add(zk.cpu() / raw.cpu());
            }
        }
        System.out.println();
        System.out.println("contender  median delivery/s  best delivery/s  median end-to-end/s  median per cpu-s  "
                + "median ms to first batch");
        results.forEach((name, list) -> System.out.printf(Locale.ROOT, "%-9s %,18.0f %,16.0f %,20.0f %,17.0f %,25.0f%n", name,
                median(list.stream().map(Run::delivery).toList()),
                list.stream().mapToDouble(Run::delivery).max().orElse(0),
                median(list.stream().map(Run::endToEnd).toList()),
                median(list.stream().map(Run::cpu).toList()),
                median(list.stream().map(Run::firstMillis).toList())));
        System.out.printf(Locale.ROOT, "zk/raw, median of per-round ratios: delivery %.3f, end-to-end %.3f, per cpu-s %.3f%n",
                median(deliveryRatios), median(endToEndRatios), median(cpuRatios));
        System.out.printf(Locale.ROOT, "zk/raw, ratio of medians: delivery %.3f%n",
                median(results.get("zk").stream().map(Run::delivery).toList())
                        / median(results.get("raw").stream().map(Run::delivery).toList()));
        System.out.println("(checksum " + checksum + ")");
    }

    /**
     * The raw contender, with exactly the properties ZkGroupConsumer gives the KafkaConsumer it wraps (built by the
     * same {@link ZkConsumerConfig} from the same 0.8 properties), so that the two differ only in the wrapper. With
     * {@code --raw-defaults 1} it gets kafka-clients' defaults instead, as before 2026-12-01: fetch.max.wait.ms 500
     * where ZkGroupConsumer translates 0.8's fetch.wait.max.ms 100.
     */
    private Consumer<byte[], byte[]> rawConsumer() {
        Map<String, Object> props = new HashMap<>();
        if (rawDefaults) {
            props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxPollRecords);
        } else {
            props.putAll(ZkConsumerConfig.from(zkProperties("bench-raw")).fetchClientProperties(bootstrap));
        }
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "bench-raw");
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> all = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(TOPIC, p)).toList();
        consumer.assign(all);
        consumer.seekToBeginning(all);
        return consumer;
    }

    /** The 0.8-style properties of the zk contender (and, translated, of the raw one). */
    private Properties zkProperties(String groupId) {
        Properties props = new Properties();
        props.setProperty("zookeeper.connect", zookeeper);
        props.setProperty("group.id", groupId);
        props.setProperty("auto.offset.reset", "smallest");
        props.setProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(maxPollRecords));
        props.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.setProperty("client.id", "bench-zk");
        if (maxUncommittedRecords != null) {
            props.setProperty("zkgroups.max.uncommitted.records", String.valueOf(maxUncommittedRecords));
        }
        return props;
    }

    private Consumer<byte[], byte[]> zkConsumer() {
        return new ZkGroupConsumer<>(zkProperties("bench-zk-" + (++groups)), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Reads every record once; {@code subscribe} for the group consumer happens inside the timed window. */
    private Run run(Consumer<byte[], byte[]> consumer, boolean subscribe) {
        try (consumer) {
            long start = System.nanoTime();
            if (subscribe) {
                consumer.subscribe(List.of(TOPIC));
            }
            long deadline = start + RUN_TIMEOUT.toNanos();
            long firstAt = 0;
            long firstCpu = 0;
            int firstBatch = 0;
            int seen = 0;
            long sum = 0;
            while (seen < records) {
                ConsumerRecords<byte[], byte[]> batch = consumer.poll(POLL);
                for (ConsumerRecord<byte[], byte[]> r : batch) {
                    sum += r.offset() + r.value().length;
                    seen++;
                }
                if (firstAt == 0 && seen > 0) {
                    firstAt = System.nanoTime();
                    firstCpu = THREADS.getCurrentThreadCpuTime();
                    firstBatch = seen;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("only " + seen + " of " + records + " records within " + RUN_TIMEOUT);
                }
            }
            long end = System.nanoTime();
            long endCpu = THREADS.getCurrentThreadCpuTime();
            if (seen != records) {
                throw new IllegalStateException("read " + seen + " records, expected " + records);
            }
            checksum += sum;
            return new Run((seen - firstBatch) / ((end - firstAt) / 1e9), seen / ((end - start) / 1e9),
                    (seen - firstBatch) / ((endCpu - firstCpu) / 1e9), (firstAt - start) / 1e6);
        }
    }

    // --- setup ------------------------------------------------------------------------------------------

    private static KafkaServer startBroker(String zookeeperConnect, Path logDir) {
        Properties props = new Properties();
        props.put("broker.id", "0");
        props.put("zookeeper.connect", zookeeperConnect);
        props.put("listeners", "PLAINTEXT://127.0.0.1:0");
        props.put("log.dirs", logDir.toString());
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "1");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.put("log.cleaner.dedupe.buffer.size", "2097152");
        props.put("auto.create.topics.enable", "false");
        props.put("controlled.shutdown.enable", "false");
        KafkaServer server = new KafkaServer(KafkaConfig.fromProps(props), Time.SYSTEM, scala.Option.empty(), false);
        server.startup();
        return server;
    }

    private static void createAndFill(String bootstrap, int partitions, int records, int size) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                TopicDescription d = admin.describeTopics(List.of(TOPIC)).allTopicNames().get(30, TimeUnit.SECONDS).get(TOPIC);
                if (d.partitions().stream().allMatch(p -> p.leader() != null && !p.leader().isEmpty())) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("topic " + TOPIC + " has no leaders after 30 s");
                }
            }
        }
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            byte[] value = new byte[size];
            Arrays.fill(value, (byte) 'x');
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(TOPIC, i % partitions, null, value));
            }
            producer.flush();
        }
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp dir left behind
        }
    }
}
