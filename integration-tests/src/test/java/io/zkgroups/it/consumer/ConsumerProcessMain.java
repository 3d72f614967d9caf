package io.zkgroups.it.consumer;

import io.zkgroups.rebalancer.consumer.ZkConsumerConfig;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.rebalancer.restart.HandoverObserver;
import io.zkgroups.testing.StandardInput;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.stream.Collectors;

/**
 * One {@link ZkGroupConsumer} poll loop in a JVM of its own, so that a test can kill the whole process
 * ({@code destroyForcibly}, SIGKILL) and let its ZooKeeper session expire for real. Started by
 * {@link ChildConsumer} with the test's own classpath.
 *
 * <pre>
 * ConsumerProcessMain TOPIC KEY=VALUE...        (any ZkGroupConsumer property)
 * </pre>
 * The stdin line {@code restart} stops it for a restart ({@link ZkGroupConsumer#closeForRestart()}, which needs
 * {@code zkgroups.restart.handover.file}); every step of a session hand-over, here or when it starts as a successor,
 * is printed, and with {@code test.handover.pause=<step>} the process stops at that step for good (for a kill -9).
 * With {@code test.commit=on-request} it acts like an application that processes every batch for as long as the test
 * wants: after a non-empty batch it waits for a stdin line {@code commit}, calls {@code commitSync()} and prints the
 * outcome, then polls again. With {@code test.commit=once} it commits ({@code commitSync()}) after its first non-empty
 * batch only, and keeps polling.
 *
 * Prints one event per line on stdout (logs go to stderr):
 * <pre>
 * STARTED &lt;consumer id&gt;                     subscribed; the group member is starting
 * ASSIGNED|REVOKED|LOST &lt;topic-partition,...&gt;  the rebalance listener's calls (on the poll thread)
 * REC &lt;topic&gt; &lt;partition&gt; &lt;offset&gt;          one delivered record
 * CLOSED                                      after a graceful close (stdin line {@code close}, or end of stdin)
 * STEP &lt;hand-over step&gt;                      a step of a session hand-over has completed
 * PAUSED &lt;hand-over step&gt;                    (with test.handover.pause) stopped for good after that step
 * RESTARTED                                   after closeForRestart() (stdin line {@code restart})
 * ERROR &lt;text&gt;                                the poll loop failed (exit code 2)
 * WAITING                                     (on-request mode) a batch was handed out; waiting for {@code commit}
 * COMMITTED | COMMIT-FAILED &lt;text&gt;           (on-request mode) the outcome of commitSync()
 * COMMITTED-AT &lt;partition=offset,...&gt;      (once mode) what its one commitSync() committed
 * IDLE                                        (once mode) five polls in a row returned nothing after the commit
 * </pre>
 * The REC lines of one poll are flushed before the next poll. Commits only happen inside poll (auto-commit,
 * the commit before a revocation) or close, and commit at most the position after the last returned batch:
 * every committed offset has been printed — and survives a SIGKILL in the pipe — before it is committed.
 */
public final class ConsumerProcessMain {

    private ConsumerProcessMain() {
    }

    public static void main(String[] args) {
        PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
                false, StandardCharsets.US_ASCII);
        if (args.length < 1) {
            out.println("ERROR usage: ConsumerProcessMain TOPIC KEY=VALUE...");
            out.flush();
            System.exit(2);
        }
        String topic = args[0];
        Properties props = new Properties();
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            props.setProperty(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        String commitMode = (String) props.remove("test.commit");
        boolean commitOnRequest = "on-request".equals(commitMode);
        boolean commitOnce = "once".equals(commitMode);
        String pauseAt = (String) props.remove("test.handover.pause");
        int exitCode = 0;
        HandoverObserver steps = step -> {
            event(out, "STEP " + step);
            if (step.name().equals(pauseAt)) {
                event(out, "PAUSED " + step);
                awaitForever();
            }
        };
        ZkGroupConsumer<byte[], byte[]> consumer = new ZkGroupConsumer<>(ZkConsumerConfig.from(props),
                new ByteArrayDeserializer(), new ByteArrayDeserializer(), steps);
        BlockingQueue<String> commands = new LinkedBlockingQueue<>();
        Thread stdin = new Thread(() -> readCommands(consumer, commands), "stdin");
        stdin.setDaemon(true);
        stdin.start();
        try {
            consumer.subscribe(List.of(topic), new PrintingListener(out));
            event(out, "STARTED " + consumer.consumerId());
            StringBuilder batch = new StringBuilder(1 << 16);
            boolean committedOnce = false;
            int emptyPolls = 0;
            while (true) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                if (records.isEmpty()) {
                    if (committedOnce && ++emptyPolls == 5) {
                        event(out, "IDLE");
                    }
                    continue;
                }
                emptyPolls = 0;
                batch.setLength(0);
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    batch.append("REC ").append(r.topic()).append(' ').append(r.partition()).append(' ')
                            .append(r.offset()).append('\n');
                }
                out.print(batch);
                out.flush(); // before the next poll, which may commit these records
                if (commitOnce && !committedOnce) {
                    consumer.commitSync();
                    committedOnce = true;
                    event(out, "COMMITTED-AT " + consumer.assignment().stream()
                            .map(tp -> tp.partition() + "=" + consumer.position(tp)).sorted()
                            .collect(Collectors.joining(",")));
                }
                if (commitOnRequest) {
                    event(out, "WAITING");
                    if (!"commit".equals(commands.take())) {
                        throw new WakeupException();
                    }
                    try {
                        consumer.commitSync();
                        event(out, "COMMITTED");
                    } catch (CommitFailedException e) {
                        event(out, "COMMIT-FAILED " + String.valueOf(e.getMessage()).replace('\n', ' '));
                    }
                }
            }
        } catch (WakeupException closeRequested) {
            if (RESTART.equals(commands.peek())) {
                consumer.closeForRestart();
                event(out, "RESTARTED");
            } else {
                consumer.close(Duration.ofSeconds(20));
                event(out, "CLOSED");
            }
        } catch (Throwable t) {
            t.printStackTrace();
            event(out, "ERROR " + String.valueOf(t).replace('\n', ' '));
            consumer.close(Duration.ofSeconds(5));
            exitCode = 2;
        }
        System.exit(exitCode);
    }

    /**
     * The stdin line {@code close}, or the end of stdin (the parent went away), stops the poll loop; {@code commit}
     * lines go to the poll loop (on-request mode).
     */
    private static void readCommands(ZkGroupConsumer<?, ?> consumer, BlockingQueue<String> commands) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(StandardInput.closedAtExit(), StandardCharsets.US_ASCII))) {
            String line;
            while ((line = in.readLine()) != null && !line.trim().equals("close")) {
                if (line.trim().equals("commit")) {
                    commands.add("commit");
                } else if (line.trim().equals(RESTART)) {
                    commands.clear();
                    commands.add(RESTART);
                    consumer.wakeup();
                    return;
                }
            }
        } catch (IOException e) {
            // treated like the end of stdin (also its close at exit, e.g. on SIGTERM)
        }
        commands.add("close");
        consumer.wakeup();
    }

    private static final String RESTART = "restart";

    /** Blocks this thread for good: the test kills the process here. */
    private static void awaitForever() {
        try {
            new java.util.concurrent.CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void event(PrintStream out, String line) {
        out.println(line);
        out.flush();
    }

    private record PrintingListener(PrintStream out) implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            event(out, "REVOKED " + names(partitions));
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            event(out, "ASSIGNED " + names(partitions));
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            event(out, "LOST " + names(partitions));
        }

        private static String names(Collection<TopicPartition> partitions) {
            return partitions.stream().map(TopicPartition::toString).sorted().collect(Collectors.joining(","));
        }
    }
}
