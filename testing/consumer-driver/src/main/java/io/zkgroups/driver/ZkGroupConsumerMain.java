package io.zkgroups.driver;

import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A plain {@link ZkGroupConsumer} poll loop, written as a Java 8 application would write it (this module compiles
 * with {@code --release 8}), for tests that run the libraries on an older JVM.
 *
 * <pre>
 * ZkGroupConsumerMain TOPIC KEY=VALUE...        (any ZkGroupConsumer property)
 * stdout: JAVA &lt;java.version&gt;, STARTED &lt;consumer id&gt;, ASSIGNED &lt;partitions&gt;, REC &lt;partition&gt; &lt;offset&gt; &lt;value&gt;
 *         per record, CLOSED after the close; ERROR &lt;text&gt; (exit code 2) if the loop fails
 * stdin:  end of input, or a line "close", closes the consumer
 * SIGTERM closes it too, from a shutdown hook, as an application's would
 * </pre>
 */
public final class ZkGroupConsumerMain {

    private ZkGroupConsumerMain() {
    }

    public static void main(String[] args) {
        if (args.length < 1) {
            System.out.println("ERROR usage: ZkGroupConsumerMain TOPIC KEY=VALUE...");
            System.exit(2);
        }
        Properties props = new Properties();
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                System.out.println("ERROR argument " + i + " '" + args[i] + "' is not KEY=VALUE");
                System.exit(2);
            }
            props.setProperty(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        event("JAVA " + System.getProperty("java.version"));
        final ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(props, new StringDeserializer(),
                new StringDeserializer());
        Thread stdin = new Thread(new Runnable() {
            @Override
            public void run() {
                awaitClose();
                consumer.wakeup();
            }
        }, "stdin");
        stdin.setDaemon(true);
        stdin.start();
        final CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(new Runnable() {
            @Override
            public void run() {
                if (closed.getCount() == 0) {
                    return; // closed already: the exit after "close" on stdin
                }
                consumer.wakeup();
                try {
                    closed.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "close-on-sigterm"));
        int exitCode = 0;
        try {
            consumer.subscribe(Collections.singletonList(args[0]), new PrintingListener());
            event("STARTED " + consumer.consumerId());
            while (true) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(100));
                StringBuilder batch = new StringBuilder();
                for (ConsumerRecord<String, String> r : records) {
                    batch.append("REC ").append(r.partition()).append(' ').append(r.offset()).append(' ')
                            .append(r.value()).append('\n');
                }
                if (batch.length() > 0) {
                    System.out.print(batch);
                    System.out.flush();
                }
            }
        } catch (WakeupException closeRequested) {
            consumer.close(Duration.ofSeconds(20));
            event("CLOSED");
            closed.countDown();
        } catch (RuntimeException | Error e) {
            e.printStackTrace();
            event("ERROR " + String.valueOf(e).replace('\n', ' '));
            consumer.close(Duration.ofSeconds(5));
            closed.countDown();
            exitCode = 2;
        }
        System.exit(exitCode);
    }

    /** Returns at the end of stdin (the parent closed it or went away) or at a line {@code close}. */
    private static void awaitClose() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII))) {
            String line;
            while ((line = in.readLine()) != null && !line.trim().equals("close")) {
                // other lines mean nothing
            }
        } catch (IOException e) {
            // treated like the end of stdin
        }
    }

    private static void event(String line) {
        System.out.println(line);
        System.out.flush();
    }

    private static final class PrintingListener implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            event("REVOKED " + names(partitions));
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            event("ASSIGNED " + names(partitions));
        }

        private static String names(Collection<TopicPartition> partitions) {
            List<String> names = new ArrayList<>();
            for (TopicPartition tp : partitions) {
                names.add(tp.toString());
            }
            Collections.sort(names);
            return String.join(",", names);
        }
    }
}
