package io.zkgroups.bench;

import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

/**
 * One ZkGroupConsumer poll loop whose JVM is stopped with SIGTERM, the way an application stops it: a shutdown hook
 * wakes the poll thread up and waits for it to close the consumer. Started by {@link ExitLatencyBench}.
 *
 * <pre>
 * ExitMemberMain TOPIC KEY=VALUE...      (any ZkGroupConsumer property)
 * </pre>
 * Prints on stdout: {@code POS <partition> <offset>} after each batch (the last offset it handed out of each partition
 * in it), and the {@code System.nanoTime()} (CLOCK_MONOTONIC, comparable with the parent's) of each stage of the exit:
 * {@code HOOK} (the shutdown hook runs), {@code WOKE} (the poll thread left poll), {@code CLOSED} (close returned).
 */
public final class ExitMemberMain {

    private ExitMemberMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
                StandardCharsets.US_ASCII);
        Properties props = new Properties();
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            props.setProperty(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        ZkGroupConsumer<byte[], byte[]> consumer =
                new ZkGroupConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        Thread pollThread = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            out.println("HOOK " + System.nanoTime());
            consumer.wakeup();
            try {
                pollThread.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "shutdown"));
        consumer.subscribe(List.of(args[0]));
        try {
            while (true) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                java.util.Map<Integer, Long> last = new java.util.TreeMap<>();
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    last.put(r.partition(), r.offset());
                }
                last.forEach((p, o) -> out.println("POS " + p + " " + o));
            }
        } catch (WakeupException stopping) {
            out.println("WOKE " + System.nanoTime());
            consumer.close();
            out.println("CLOSED " + System.nanoTime());
        }
    }
}
