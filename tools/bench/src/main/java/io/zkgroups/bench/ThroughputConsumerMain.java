package io.zkgroups.bench;

import io.zkgroups.rebalancer.consumer.ZkConsumerConfig;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.IntStream;

/**
 * The readers on the kafka-clients side of {@link ThroughputBench}, each an ordinary poll loop that touches every
 * record, in a fresh process:
 * <ul>
 *   <li>{@code ours}: a {@link ZkGroupConsumer} in group GROUP, {@code auto.offset.reset=smallest}, every other setting
 *       its default; {@code subscribe(TOPIC)};</li>
 *   <li>{@code raw}: a {@code KafkaConsumer} with no group and exactly the properties {@code ours} gives the consumer it
 *       fetches with; {@code assign} of member INDEX's range of the partitions (of COUNT members), from the start;</li>
 *   <li>{@code raw-defaults}: the same with kafka-clients' defaults.</li>
 * </ul>
 * {@code ours+KEY=VALUE[+KEY=VALUE...]} and {@code raw+...} add settings (an A/B of a setting).
 * <pre>
 * ThroughputConsumerMain (ours|raw|raw-defaults) ZOOKEEPER BOOTSTRAP GROUP TOPIC PARTITIONS INDEX COUNT END
 * stdout: FIRST at the first record; DONE &lt;partition&gt; when it reads the record at offset END - 1 of a partition
 * stdout: at its end, READ &lt;partition&gt; &lt;from&gt;-&lt;to&gt; ... (the offsets read, see ReadRanges), then CLOSED
 * stdin:  its end closes the consumer
 * </pre>
 */
public final class ThroughputConsumerMain {

    private ThroughputConsumerMain() {
    }

    public static void main(String[] args) {
        if (args.length != 9) {
            System.err.println("usage: ThroughputConsumerMain (ours|raw|raw-defaults) ZOOKEEPER BOOTSTRAP GROUP TOPIC "
                    + "PARTITIONS INDEX COUNT END");
            System.exit(2);
        }
        String[] modeAndSettings = args[0].split("\\+");
        String mode = modeAndSettings[0];
        String topic = args[4];
        int partitions = Integer.parseInt(args[5]);
        int index = Integer.parseInt(args[6]);
        int count = Integer.parseInt(args[7]);
        long last = Long.parseLong(args[8]) - 1;
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        Properties zk = new Properties();
        zk.setProperty("zookeeper.connect", args[1]);
        zk.setProperty("group.id", args[3]);
        zk.setProperty("auto.offset.reset", "smallest");
        for (int i = 1; i < modeAndSettings.length; i++) {
            String[] kv = modeAndSettings[i].split("=", 2);
            zk.setProperty(kv[0], kv[1]);
        }
        try (Consumer<byte[], byte[]> consumer = open(mode, zk, args[2])) {
            Thread stopper = new Thread(() -> {
                try {
                    System.in.transferTo(OutputStream.nullOutputStream()); // until the parent closes our stdin
                } catch (IOException e) {
                    // the parent is gone: stop as well
                }
                consumer.wakeup();
            }, "stopper");
            stopper.setDaemon(true);
            stopper.start();
            if (mode.equals("ours")) {
                consumer.subscribe(List.of(topic));
            } else {
                List<TopicPartition> mine = IntStream.range(index * partitions / count, (index + 1) * partitions / count)
                        .mapToObj(p -> new TopicPartition(topic, p)).toList();
                consumer.assign(mine);
                consumer.seekToBeginning(mine);
            }
            ReadRanges ranges = new ReadRanges();
            long read = 0;
            long touched = 0;
            try {
                while (true) {
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                        touched += r.value().length;
                        ranges.read(r.partition(), r.offset());
                        if (++read == 1) {
                            out.println("FIRST");
                        }
                        if (r.offset() == last) {
                            out.println("DONE " + r.partition());
                        }
                    }
                }
            } catch (WakeupException stopped) {
                ranges.print(out);
                System.err.println("read " + read + " records, " + touched + " bytes, commits: " + commits(consumer));
            }
        }
        out.println("CLOSED");
    }
    private static Consumer<byte[], byte[]> open(String mode, Properties zk, String bootstrap) {
        ByteArrayDeserializer bytes = new ByteArrayDeserializer();
        switch (mode) {
            case "ours":
                return new ZkGroupConsumer<>(zk, bytes, bytes);
            case "raw":
                return new KafkaConsumer<>(ZkConsumerConfig.from(zk).fetchClientProperties(bootstrap), bytes, bytes);
            case "raw-defaults":
                Map<String, Object> defaults = new HashMap<>();
                zk.stringPropertyNames().stream().filter(k -> !k.equals("zookeeper.connect") && !k.equals("group.id")
                        && !k.equals("auto.offset.reset")).forEach(k -> defaults.put(k, zk.getProperty(k)));
                defaults.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
                return new KafkaConsumer<>(defaults, bytes, bytes);
            default:
                throw new IllegalArgumentException("unknown reader " + mode + ": ours, raw or raw-defaults");
        }
    }

    /** How many commits the consumer wrote ({@code commit-total}); "none counted" for one without a group. */
    private static String commits(Consumer<?, ?> consumer) {
        return consumer.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("commit-total"))
                .map(e -> String.format("%.0f", (Double) e.getValue().metricValue()))
                .findFirst().orElse("none counted");
    }
}
