package io.zkgroups.bench;

import io.zkgroups.rebalancer.consumer.ZkConsumerConfig;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.rebalancer.restart.HandoverObserver;
import io.zkgroups.rebalancer.restart.HandoverStep;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * A restart's successor started before its predecessor stops (docs/restarts.md): a ZkGroupConsumer that finds no
 * ticket in its hand-over file, warms up and waits for one. Started by {@link SuccessorStartBench}, which stops it
 * there.
 *
 * <pre>
 * SuccessorMain KEY=VALUE...      (any ZkGroupConsumer property)
 * </pre>
 * Prints {@code AWAITING <System.nanoTime()>} on stdout when it starts to wait (CLOCK_MONOTONIC, the parent's clock).
 */
public final class SuccessorMain {

    private SuccessorMain() {
    }

    public static void main(String[] args) {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.US_ASCII);
        Properties props = new Properties();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            props.setProperty(arg.substring(0, eq), arg.substring(eq + 1));
        }
        HandoverObserver observer = step -> {
            if (step == HandoverStep.AWAITING_TICKET) {
                out.println("AWAITING " + System.nanoTime());
            }
        };
        // returns only if a ticket came (none does) or the wait ended; the parent kills the process before that
        new ZkGroupConsumer<>(ZkConsumerConfig.from(props), new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                observer).close();
    }
}
