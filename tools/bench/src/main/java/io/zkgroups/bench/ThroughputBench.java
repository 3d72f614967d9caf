package io.zkgroups.bench;

import io.zkgroups.testing.ChildJvm;
import io.zkgroups.testing.TestZooKeeper;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Read throughput of the product beside 0.8.2.2, from outside: fresh reader processes (same JVM options) on a Kafka
 * 3.9 broker in its own JVM, one ZooKeeper server in this JVM. Readers ({@code --readers}):
 * <ul>
 *   <li>{@code legacy}: an ordinary 0.8 program ({@code io.zkgroups.legacy.ThroughputReader}: one stream, its
 *       iterator) on the real kafka_2.10 0.8.2.2 jar;</li>
 *   <li>{@code bridge}: the same program, unchanged, on zkgroups' kafka08-bridge; {@code bridge+KEY=VALUE} with a
 *       consumer setting the program does not set ({@code -Dzkgroups.consumer.KEY=VALUE});</li>
 *   <li>{@code ours}: {@code ZkGroupConsumer} in a plain poll loop ({@link ThroughputConsumerMain});</li>
 *   <li>{@code raw}: a {@code KafkaConsumer}, no group, with the fetch settings {@code ours} gives its own; and
 *       {@code raw-defaults}, with kafka-clients' defaults.</li>
 * </ul>
 * {@code READER@OPTION[@OPTION...]} runs a reader with JVM options added to everyone's (an A/B of a JVM option).
 * Per shape (record size × partitions × members in one group) the topic is filled, and read once by each reader
 * untimed; then, per repetition, every reader in turn reads it whole in a new group. Records/s runs from the first record any member
 * printed to the last member's last, as this JVM sees the lines arrive; start → first and start → last from the first
 * process start;
 * CPU-seconds (user + system, whole processes, start-up included) per million records and the largest peak resident
 * set, read from {@code /proc} as the last record's line arrives. Run through {@code tools/bench/throughput.sh}.
 */
@Command(name = "throughput.sh", mixinStandardHelpOptions = true, sortOptions = false,
        description = "read throughput: 0.8.2.2, the bridge, ZkGroupConsumer and a raw KafkaConsumer, fresh processes")
public final class ThroughputBench implements Callable<Integer> {

    private static final Duration READ_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);

    @Option(names = "--shapes", split = ",", defaultValue = "100x16x1", paramLabel = "BYTESxPARTITIONSxMEMBERS",
            description = "record size, partitions and readers in one group, e.g. 100x16x1,1000x128x4")
    List<String> shapes;
    @Option(names = "--records", defaultValue = "2000000", description = "records per shape (1 KB shapes: fewer)")
    long records;
    @Option(names = "--readers", split = ",", defaultValue = "legacy,bridge,ours,raw",
            description = "legacy, bridge, ours, raw, raw-defaults; ours+KEY=VALUE, bridge+KEY=VALUE (a setting added: "
                    + "an A/B); READER@OPTION[@OPTION...] adds JVM options to that reader's (e.g. ours@-Xmx128m); "
                    + "the first is the reference of the × column")
    List<String> readers;
    @Option(names = "--reps", defaultValue = "3", description = "repetitions, readers alternating within each")
    int reps;
    @Option(names = "--jvm-options", defaultValue = "-Xmx1g", split = " ", description = "every reader's JVM options")
    List<String> jvmOptions;
    @Option(names = "--consumer-classpath", required = true, description = "ZkGroupConsumer's runtime class path")
    String consumerClasspath;
    @Option(names = "--legacy-classpath", required = true, description = "the 0.8 program and kafka_2.10 0.8.2.2")
    String legacyClasspath;
    @Option(names = "--bridge-classpath", required = true, description = "the 0.8 program and kafka08-bridge")
    String bridgeClasspath;
    @Option(names = "--out", defaultValue = "tools/bench/target/throughput.md", description = "where the report goes too")
    Path out;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ThroughputBench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Path logs = Path.of("tools/bench/target/throughput-logs");
        Files.createDirectories(logs);
        StringBuilder report = new StringBuilder();
        report.append(String.format("# Read throughput, %s%n%nreaders' JVM options: %s; %d repetitions, alternating%n",
                ZonedDateTime.now().withNano(0), String.join(" ", jvmOptions), reps));
        try (TestZooKeeper zk = TestZooKeeper.start()) {
            ChildJvm broker = ChildJvm.builder("broker", BrokerMain.class.getName())
                    .jvmOptions(List.of("-Xmx1g", "-Xms1g", "-XX:+UseG1GC")).args(List.of(zk.connectString()))
                    .stderrTo(logs.resolve("broker.log")).start();
            try {
                int ready = broker.requireLine(0, l -> l.startsWith("BOOTSTRAP "), Duration.ofMinutes(2), "the broker");
                String bootstrap = broker.lines().get(ready).substring("BOOTSTRAP ".length());
                for (String shape : shapes) {
                    report.append(runShape(Shape.parse(shape, records), zk.connectString(), bootstrap, logs));
                    Files.writeString(out, report);
                }
            } finally {
                broker.closeStdin();
                broker.awaitTermination(EXIT_TIMEOUT);
            }
        }
        System.out.println(report);
        return 0;
    }

    private String runShape(Shape shape, String zookeeper, String bootstrap, Path logs) throws Exception {
        String topic = "tp-" + shape.bytes + "b-" + shape.partitions + "p-" + shape.members + "m";
        fill(bootstrap, topic, shape);
        // untimed, once per reader: the broker's first read of a topic through each request version (its JIT, the page
        // cache, the down-conversion 0.8.2.2's fetches need) would be charged to the first run of each reader
        for (String reader : readers) {
            read(reader, shape, topic, -1, zookeeper, bootstrap, logs);
        }
        Map<String, List<Run>> runs = new LinkedHashMap<>();
        for (int rep = 0; rep < reps; rep++) {
            for (String reader : readers) {
                Run run = read(reader, shape, topic, rep, zookeeper, bootstrap, logs);
                runs.computeIfAbsent(reader, r -> new ArrayList<>()).add(run);
                System.out.printf("%s %s rep %d: %,.0f records/s, start -> last %.2f s, %.2f CPU-s per million, "
                                + "every record read, %,d twice%n", shape, reader, rep + 1,
                        run.recordsPerSecond(shape.records), run.startToLastNanos / 1e9,
                        run.cpuSecondsPerMillion(shape.records), run.readTwice());
            }
        }
        return ThroughputReport.table(shape.toString(), shape.records, runs);
    }

    /**
     * One reading of the topic by {@code shape.members} fresh processes of one kind, in a new group: it ends when the
     * last record of every partition has been read, by whichever member.
     */
    private Run read(String reader, Shape shape, String topic, int rep, String zookeeper, String bootstrap, Path logs)
            throws InterruptedException {
        String group = topic + "-" + reader.replaceAll("[^a-zA-Z0-9._-]", "_") + "-" + rep;
        String end = Long.toString(shape.records / shape.partitions);
        Map<Integer, Long> done = new ConcurrentHashMap<>();
        CountDownLatch allDone = new CountDownLatch(shape.partitions);
        IntConsumer onDone = p -> {
            if (done.putIfAbsent(p, System.nanoTime()) == null) {
                allDone.countDown();
            }
        };
        // a reader runs until told to stop: one that exits first (a setting it refused, a crash) ends the wait
        AtomicReference<String> exitedEarly = new AtomicReference<>();
        long started = System.nanoTime();
        List<ReaderProcess> members = new ArrayList<>();
        for (int i = 0; i < shape.members; i++) {
            List<String> args;
            String classpath;
            String main;
            String[] specAndOptions = reader.split("@");
            String spec = specAndOptions[0];
            List<String> options = new ArrayList<>(jvmOptions);
            if (spec.equals("legacy") || spec.equals("bridge") || spec.startsWith("bridge+")) {
                main = "io.zkgroups.legacy.ThroughputReader";
                classpath = spec.equals("legacy") ? legacyClasspath : bridgeClasspath;
                args = List.of(zookeeper, group, topic, end);
                options.addAll(bridgeOptions(spec));
            } else {
                main = ThroughputConsumerMain.class.getName();
                classpath = consumerClasspath;
                args = List.of(spec, zookeeper, bootstrap, group, topic, Integer.toString(shape.partitions),
                        Integer.toString(i), Integer.toString(shape.members), end);
            }
            options.addAll(Arrays.asList(specAndOptions).subList(1, specAndOptions.length));
            String name = group + "-" + i;
            members.add(new ReaderProcess(name, classpath, options, main, args, logs.resolve(name + ".log"), onDone,
                    () -> {
                        if (allDone.getCount() > 0 && exitedEarly.compareAndSet(null, name)) {
                            while (allDone.getCount() > 0) {
                                allDone.countDown();
                            }
                        }
                    }));
        }
        boolean complete = allDone.await(READ_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS) && exitedEarly.get() == null;
        members.forEach(ReaderProcess::readUsage);
        members.forEach(m -> m.finish(EXIT_TIMEOUT));
        if (exitedEarly.get() != null) {
            throw new IllegalStateException(exitedEarly.get() + " exited before every partition was read to the end ("
                    + done.size() + " of " + shape.partitions + "); its log: " + logs.resolve(exitedEarly.get() + ".log"));
        }
        if (!complete) {
            throw new IllegalStateException(group + ": partitions read to the end: " + done.keySet() + " of "
                    + shape.partitions + " after " + READ_TIMEOUT + "; logs in " + logs);
        }
        Map<Integer, List<long[]>> ranges = new HashMap<>();
        members.forEach(m -> m.ranges().forEach((p, r) -> ranges.computeIfAbsent(p, x -> new ArrayList<>()).addAll(r)));
        ReadCoverage coverage = ReadCoverage.of(shape.partitions, Long.parseLong(end), ranges);
        if (!coverage.complete()) {
            throw new IllegalStateException(group + ": records nobody read (lost): " + coverage.describeMissing()
                    + "; logs in " + logs);
        }
        return Run.of(started, Collections.max(done.values()), members, coverage.readTwice());
    }

    private static void fill(String bootstrap, String topic, Shape shape) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, shape.partitions, (short) 1))).all().get(1, TimeUnit.MINUTES);
        }
        Map<String, Object> props = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "1", ProducerConfig.LINGER_MS_CONFIG, "20",
                ProducerConfig.BATCH_SIZE_CONFIG, "262144", ProducerConfig.BUFFER_MEMORY_CONFIG, "134217728");
        byte[] value = new byte[shape.bytes];
        new Random(42).nextBytes(value);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (long i = 0; i < shape.records; i++) {
                producer.send(new ProducerRecord<>(topic, (int) (i % shape.partitions), null, value));
            }
            producer.flush();
        }
    }

    /**
     * The JVM options a 0.8 program's reader adds: {@code bridge+KEY=VALUE[+KEY=VALUE...]} adds consumer settings the
     * program does not set, as {@code -Dzkgroups.consumer.KEY=VALUE} (an A/B of the bridge's settings).
     */
    private static List<String> bridgeOptions(String reader) {
        List<String> options = new ArrayList<>();
        String[] parts = reader.split("\\+");
        for (int i = 1; i < parts.length; i++) {
            if (!parts[i].contains("=")) {
                throw new IllegalArgumentException(reader + ": a setting is KEY=VALUE, not " + parts[i]);
            }
            options.add("-Dzkgroups.consumer." + parts[i]);
        }
        return options;
    }

    /** Record size, partitions, members in one group, and how many records. */
    record Shape(int bytes, int partitions, int members, long records) {
        static Shape parse(String text, long records) {
            String[] parts = text.split("x");
            if (parts.length != 3) {
                throw new IllegalArgumentException("a shape is BYTESxPARTITIONSxMEMBERS: " + text);
            }
            Shape shape = new Shape(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]), records);
            if (shape.partitions % shape.members != 0 || records % shape.partitions != 0) {
                throw new IllegalArgumentException(text + ": members must divide the partitions and partitions the "
                        + records + " records, so that every member reads an equal share");
            }
            return shape;
        }

        @Override
        public String toString() {
            return String.format("%,d records of %d B, %d partitions, %d member%s", records, bytes, partitions, members,
                    members == 1 ? "" : "s");
        }
    }

    /** What one reading measured. */
    record Run(long firstToLastNanos, long startToLastNanos, long cpuNanos, long peakKib, long readTwice) {
        static Run of(long started, long last, List<ReaderProcess> members, long readTwice) {
            long first = members.stream().mapToLong(ReaderProcess::firstNanos).min().orElseThrow();
            boolean cpuKnown = members.stream().allMatch(m -> m.cpuNanos() >= 0);
            return new Run(last - first, last - started,
                    cpuKnown ? members.stream().mapToLong(ReaderProcess::cpuNanos).sum() : -1,
                    members.stream().mapToLong(ReaderProcess::peakKib).max().orElse(-1), readTwice);
        }

        long startToFirstNanos() {
            return startToLastNanos - firstToLastNanos;
        }

        double recordsPerSecond(long records) {
            return records / (firstToLastNanos / 1e9);
        }

        double cpuSecondsPerMillion(long records) {
            return cpuNanos < 0 ? Double.NaN : cpuNanos / 1e9 / (records / 1e6);
        }
    }
}
