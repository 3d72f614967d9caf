package io.zkgroups.bench;

import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * The consumer application {@link ProductBench} runs on the zkgroups side: an ordinary poll loop over a
 * {@link ZkGroupConsumer} built from a 0.8 properties file, with every setting at its default but those in the file.
 * It prints one line per record handed out, {@code MSG <topic> <partition> <offset>}, as the 0.8.2.2 side's
 * {@code LegacyConsumerMain} does (which adds key and value); SIGTERM closes the consumer (it commits and leaves),
 * as 0.8.2.2's shutdown hook does for its side.
 *
 * <pre>ProductConsumerMain CONSUMER_PROPERTIES TOPIC</pre>
 */
public final class ProductConsumerMain {

    /**
     * JVM property: before it joins its group, the process joins another group ({@code <group>-rehearsal}) on the same
     * topic once, until a record comes, and leaves it. Its join then runs with the consumer's code loaded and run
     * once: what a join costs without a fresh JVM's first run of that code (an experiment, not a deployment).
     */
    static final String REHEARSE = "bench.rehearse";

    private ProductConsumerMain() {
    }

    private static void rehearse(Properties props, String topic) {
        Properties other = new Properties();
        other.putAll(props);
        other.setProperty("group.id", props.getProperty("group.id") + "-rehearsal");
        try (ZkGroupConsumer<byte[], byte[]> rehearsal =
                     new ZkGroupConsumer<>(other, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            rehearsal.subscribe(List.of(topic));
            while (rehearsal.poll(Duration.ofMillis(100)).isEmpty()) {
                // the producer writes to every partition every interval: a record comes
            }
        }
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
            props.load(in);
        }
        if (Boolean.getBoolean(REHEARSE)) {
            rehearse(props, args[1]);
        }
        ZkGroupConsumer<byte[], byte[]> consumer =
                new ZkGroupConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            consumer.wakeup();
            try {
                closed.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "shutdown"));
        try {
            consumer.subscribe(List.of(args[1]));
            while (true) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    out.append("MSG ").append(r.topic()).append(' ').append(Integer.toString(r.partition())).append(' ')
                            .append(Long.toString(r.offset())).append('\n');
                }
                out.flush();
            }
        } catch (WakeupException e) {
            // SIGTERM
        } finally {
            consumer.close();
            out.println("CLOSED");
            out.flush();
            closed.countDown();
        }
    }
}
