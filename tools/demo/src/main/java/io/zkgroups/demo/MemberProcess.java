package io.zkgroups.demo;

import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

/**
 * A zkgroups member in its own JVM, so the demo can kill it with -9. Arguments: a consumer properties file
 * and a topic. Prints {@code READY}, then {@code REC <topic> <partition> <offset>} per delivered record;
 * closes gracefully (commit, release) on SIGTERM.
 */
public final class MemberProcess {

    private MemberProcess() {
    }

    public static void main(String[] args) throws IOException {
        Properties props = new Properties();
        try (InputStream in = new FileInputStream(args[0])) {
            props.load(in);
        }
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, "UTF-8");
        ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(props, new StringDeserializer(), new StringDeserializer());
        Thread main = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            consumer.wakeup();
            try {
                main.join(20_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        try {
            consumer.subscribe(List.of(args[1]));
            out.println("READY " + consumer.consumerId());
            out.flush();
            while (true) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    out.println("REC " + r.topic() + " " + r.partition() + " " + r.offset());
                }
                out.flush();
            }
        } catch (WakeupException stop) {
            consumer.close(Duration.ofSeconds(15));
            out.println("CLOSED");
            out.flush();
        }
    }
}
