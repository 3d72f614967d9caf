package io.zkgroups.bench;

import io.zkgroups.rebalancer.consumer.ZkConsumerConfig;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.rebalancer.restart.HandoverObserver;
import io.zkgroups.rebalancer.restart.HandoverStep;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

/**
 * A restart's successor started before its predecessor stops (docs/restarts.md): a ZkGroupConsumer that finds no
 * ticket in its hand-over file, warms up and waits for one, then resumes the session and polls. Started by
 * {@link SuccessorStartBench}, which stops it.
 *
 * <pre>
 * SuccessorMain TOPIC KEY=VALUE...      (any ZkGroupConsumer property)
 * </pre>
 * Prints the {@code System.nanoTime()} (CLOCK_MONOTONIC, the parent's clock) of {@code AWAITING} (it starts to wait for
 * the ticket) and {@code FIRST} (its first record after the ticket).
 */
public final class SuccessorMain {

    private SuccessorMain() {
    }

    public static void main(String[] args) {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.US_ASCII);
        Properties props = new Properties();
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            props.setProperty(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        HandoverObserver observer = step -> {
            if (step == HandoverStep.AWAITING_TICKET) {
                out.println("AWAITING " + System.nanoTime());
            }
        };
        try (ZkGroupConsumer<byte[], byte[]> consumer = new ZkGroupConsumer<>(ZkConsumerConfig.from(props),
                new ByteArrayDeserializer(), new ByteArrayDeserializer(), observer)) {
            consumer.subscribe(List.of(args[0]));
            boolean delivered = false;
            while (true) { // until the parent kills the process
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                if (!records.isEmpty() && !delivered) {
                    out.println("FIRST " + System.nanoTime());
                    delivered = true;
                }
            }
        }
    }
}
