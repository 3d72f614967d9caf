package io.zkgroups.chaos.member;

import io.zkgroups.rebalancer.consumer.ZkConsumerConfig;
import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.rebalancer.restart.HandoverObserver;
import io.zkgroups.rebalancer.restart.HandoverStep;
import io.zkgroups.testing.StandardInput;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.AsynchronousCloseException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One group member of a chaos run: a {@link ZkGroupConsumer} poll loop in a JVM of its own that logs, with
 * {@code System.nanoTime()} (CLOCK_MONOTONIC, comparable between processes of one Linux host), every record it
 * hands to the application and every commit before and after it (the format is {@link MemberLog}'s). It commits
 * itself ({@code auto.commit.enable=false}): the positions after each handed-out batch every
 * {@code commit.interval.ms}, and the positions of revoked partitions in {@code onPartitionsRevoked}, as a Kafka
 * application does.
 *
 * <pre>
 * ChaosMemberMain LOG_FILE TOPIC MODE COMMIT_INTERVAL_MS KEY=VALUE...   (ZkGroupConsumer properties)
 * </pre>
 * MODE {@code correct} is the application as it should be written. The broken modes exist to prove that the
 * invariant monitor catches what it must: {@code ignore-loss} keeps handing out the partitions it lost or had
 * revoked (from its own fetcher), {@code stale-commit} commits a partition's first position of its tenure every
 * third commit (a committed offset that moves backwards), {@code lazy-commit} commits only on revocation and close,
 * without the cap on uncommitted records (a kill's or lost session's window outgrows its bound), {@code stall} stops polling once for longer than the
 * stall bound while keeping its partitions.
 * <p>
 * Commands on stdin (one per line): {@code slow-revoke MS} (the next onPartitionsRevoked takes MS longer),
 * {@code slow-process MS} (processing the next batch takes MS), {@code close} (graceful leave). SIGTERM and the
 * end of stdin (the orchestrator went away) are a graceful leave too. Events other than REC are echoed to stdout for the orchestrator.
 */
public final class ChaosMemberMain {

    private final MemberLog log;
    private final ZkGroupConsumer<byte[], byte[]> consumer;
    private final MemberMode mode;
    private final long commitIntervalNanos;
    /** Next offset to hand out per owned partition (after the last record handed out in this tenure). */
    private final Map<TopicPartition, Long> positions = new HashMap<>();
    /** First offset handed out per partition in this tenure: what stale-commit writes back. */
    private final Map<TopicPartition, Long> tenureStart = new HashMap<>();
    private final ZombieFetcher zombie;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile long slowRevokeMs;
    private volatile long slowProcessMs;
    private volatile boolean closing;
    private final Map<TopicPartition, Long> lastCommitted = new HashMap<>();
    private long nextCommitNanos;
    private long startNanos;
    private boolean stalled;
    private int commits;
    /** The bound of the commit in onPartitionsRevoked: zkgroups.rebalance.kafka.timeout.ms's default. */
    private static final Duration REVOKE_COMMIT_TIMEOUT = Duration.ofSeconds(2);
    /** Revocations the consumer released without a commit so far (its {@code revoke-timeout-total} metric). */
    private double revokeTimeouts;

    private ChaosMemberMain(MemberLog log, ZkGroupConsumer<byte[], byte[]> consumer, MemberMode mode, long commitIntervalMs,
                            Properties props) {
        this.log = log;
        this.consumer = consumer;
        this.mode = mode;
        this.commitIntervalNanos = TimeUnit.MILLISECONDS.toNanos(commitIntervalMs);
        this.zombie = mode == MemberMode.IGNORE_LOSS ? new ZombieFetcher(props.getProperty("bootstrap.servers")) : null;
    }

    public static void main(String[] args) throws Exception {
        MemberLog log = MemberLog.open(Path.of(args[0]));
        String topic = args[1];
        MemberMode mode = MemberMode.parse(args[2]);
        long commitIntervalMs = Long.parseLong(args[3]);
        Properties props = new Properties();
        for (int i = 4; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            props.setProperty(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        props.setProperty("auto.commit.enable", "false");
        if (mode == MemberMode.LAZY_COMMIT) {
            props.setProperty("zkgroups.max.uncommitted.records", "0"); // the cap would stop it at the bound
        }
        ZkGroupConsumer<byte[], byte[]> consumer;
        try {
            // a successor started before its predecessor stops says so while it waits for the ticket
            HandoverObserver steps = step -> {
                if (step == HandoverStep.AWAITING_TICKET) {
                    log.event("AWAITING-TICKET", ProcessHandle.current().pid() + "");
                }
            };
            consumer = new ZkGroupConsumer<>(ZkConsumerConfig.from(props), new ByteArrayDeserializer(),
                    new ByteArrayDeserializer(), steps);
        } catch (RuntimeException e) {
            log.event("ERROR", oneLine(e));
            System.exit(2);
            return;
        }
        ChaosMemberMain member = new ChaosMemberMain(log, consumer, mode, commitIntervalMs, props);
        Runtime.getRuntime().addShutdownHook(new Thread(member::leaveOnSignal, "sigterm"));
        Thread stdin = new Thread(member::readCommands, "stdin");
        stdin.setDaemon(true);
        stdin.start();
        int exit = member.run(topic);
        System.exit(exit);
    }

    private int run(String topic) {
        int exit = 0;
        try {
            consumer.subscribe(List.of(topic), new LoggingListener());
            log.event("START", consumer.consumerId().value() + " " + ProcessHandle.current().pid() + " " + mode.label());
            startNanos = System.nanoTime();
            nextCommitNanos = startNanos + commitIntervalNanos;
            while (!closing) {
                ConsumerRecords<byte[], byte[]> records;
                try {
                    records = consumer.poll(Duration.ofMillis(100));
                } catch (WakeupException e) {
                    break;
                } catch (RuntimeException e) {
                    // A failing callback or commit inside poll: the member goes on, as a resilient application would.
                    log.event("ERROR", oneLine(e));
                    continue;
                }
                handOut(records);
                if (zombie != null) {
                    zombie.poll(log);
                }
                process();
                if (mode != MemberMode.LAZY_COMMIT && System.nanoTime() >= nextCommitNanos) {
                    commit(new HashMap<>(positions), "interval");
                    nextCommitNanos = System.nanoTime() + commitIntervalNanos;
                }
            }
            consumer.close(Duration.ofSeconds(30)); // revokes everything: the listener commits
            log.event("CLOSED", "");
        } catch (RuntimeException e) {
            log.event("ERROR", oneLine(e));
            exit = 2;
        } finally {
            if (zombie != null) {
                zombie.close();
            }
            log.close();
            finished.countDown();
        }
        return exit;
    }

    /** Logs the batch (flushed before anything is committed), then remembers the positions. */
    private void handOut(ConsumerRecords<byte[], byte[]> records) {
        if (records.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        for (TopicPartition tp : records.partitions()) {
            List<ConsumerRecord<byte[], byte[]>> list = records.records(tp);
            long from = list.get(0).offset();
            long previous = from - 1;
            for (ConsumerRecord<byte[], byte[]> r : list) {
                if (r.offset() != previous + 1) {
                    log.records(now, tp.partition(), from, previous);
                    from = r.offset();
                }
                previous = r.offset();
            }
            log.records(now, tp.partition(), from, previous);
            positions.put(tp, previous + 1);
            tenureStart.putIfAbsent(tp, list.get(0).offset());
        }
        log.flush();
    }

    /** The application's work; slow on demand (a fault), or stalled once by the broken {@code stall} mode. */
    private void process() {
        if (mode == MemberMode.STALL && !stalled
                && System.nanoTime() - startNanos >= TimeUnit.MILLISECONDS.toNanos(MemberMode.STALL_AFTER_MS)) {
            stalled = true;
            log.event("STALL-HOLD", Long.toString(MemberMode.STALL_HOLD_MS));
            pause(MemberMode.STALL_HOLD_MS);
        }
        long ms = slowProcessMs;
        if (ms > 0) {
            slowProcessMs = 0;
            log.event("SLOW-PROCESS", Long.toString(ms));
            pause(ms);
        }
    }

    private void commit(Map<TopicPartition, Long> offsets, String why) {
        commit(offsets, why, null);
    }

    /**
     * Commits {@code offsets} (those not committed already) within {@code timeout} (null: the consumer's
     * default.api.timeout.ms); returns false if the commit failed.
     */
    private boolean commit(Map<TopicPartition, Long> offsets, String why, Duration timeout) {
        offsets.entrySet().removeIf(e -> e.getValue().equals(lastCommitted.get(e.getKey())));
        if (offsets.isEmpty()) {
            return true;
        }
        commits++;
        if (mode == MemberMode.STALE_COMMIT && commits % 3 == 0) {
            offsets.replaceAll((tp, offset) -> tenureStart.getOrDefault(tp, offset));
        }
        Map<TopicPartition, OffsetAndMetadata> request = new HashMap<>();
        Map<Integer, Long> logged = new TreeMap<>();
        offsets.forEach((tp, offset) -> {
            request.put(tp, new OffsetAndMetadata(offset));
            logged.put(tp.partition(), offset);
        });
        log.commitStart(why, logged);
        try {
            if (timeout == null) {
                consumer.commitSync(request);
            } else {
                consumer.commitSync(request, timeout);
            }
            lastCommitted.putAll(offsets);
            log.event("COMMITTED", "");
            return true;
        } catch (RuntimeException e) {
            log.event("COMMIT-FAILED", oneLine(e));
            return false;
        }
    }

    private void readCommands() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(StandardInput.closedAtExit(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.trim().split(" ");
                switch (f[0]) {
                    case "slow-revoke" -> slowRevokeMs = Long.parseLong(f[1]);
                    case "slow-process" -> slowProcessMs = Long.parseLong(f[1]);
                    case "close" -> {
                        closing = true;
                        consumer.wakeup();
                    }
                    default -> log.event("ERROR", "unknown command " + line);
                }
            }
        } catch (AsynchronousCloseException e) {
            return; // closed at exit: this JVM is leaving already
        } catch (IOException e) {
            // a broken pipe: the same as the end of stdin
        }
        // The orchestrator went away: leave instead of living on as an orphan.
        closing = true;
        consumer.wakeup();
    }

    /** SIGTERM: leave the group as on {@code close}, and let the JVM exit once the loop has. */
    private void leaveOnSignal() {
        closing = true;
        consumer.wakeup();
        try {
            finished.await(40, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private double revokeTimeoutTotal() {
        return consumer.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("revoke-timeout-total"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms); // the length of the fault, not a synchronization
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String oneLine(Throwable e) {
        return String.valueOf(e).replace('\n', ' ').replace('\r', ' ');
    }

    private final class LoggingListener implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            log.partitions("ASSIGNED", partitions);
            if (zombie != null) {
                zombie.forget(partitions);
            }
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            log.partitions("REVOKED", partitions);
            long ms = slowRevokeMs;
            if (ms > 0 && !partitions.isEmpty()) {
                slowRevokeMs = 0;
                log.event("SLOW-REVOKE", Long.toString(ms));
                pause(ms);
            }
            Map<TopicPartition, Long> revoked = new HashMap<>();
            partitions.forEach(tp -> {
                if (positions.containsKey(tp)) {
                    revoked.put(tp, positions.get(tp));
                }
            });
            // Bounded as 0.8.2.2 peers waiting for these partitions need (docs/kafka-outage.md). If it fails (Kafka
            // unreachable with offsets.storage=kafka) the partitions are released without a commit, as after a
            // revoke timeout: logged the same way, their uncommitted window may be handed out again.
            if (!commit(revoked, "revoke", REVOKE_COMMIT_TIMEOUT)) {
                log.partitions("REVOKE-TIMEOUT", revoked.keySet());
                release(partitions);
                return;
            }
            // A revocation slower than zkgroups.revoke.timeout.ms: the consumer released the partitions meanwhile,
            // without a commit, and refused the one above.
            noteRevokeTimeout(partitions);
            release(partitions);
        }

        /**
         * Partitions are lost when the session ended, or when a revocation timed out (zkgroups.revoke.timeout.ms)
         * before the poll thread got to it: the consumer then released them without a commit and tells the
         * application now. The revoke-timeout metric tells the two apart; it is recorded as the revocation times out,
         * long before the poll thread, still busy with the application, gets here.
         */
        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            noteRevokeTimeout(partitions);
            log.partitions("LOST", partitions);
            release(partitions);
        }

        /** Logs REVOKE-TIMEOUT for {@code partitions} if the consumer's revoke-timeout metric grew since last time. */
        private void noteRevokeTimeout(Collection<TopicPartition> partitions) {
            double timeouts = revokeTimeoutTotal();
            if (timeouts > revokeTimeouts) {
                revokeTimeouts = timeouts;
                log.partitions("REVOKE-TIMEOUT", partitions);
            }
        }

        private void release(Collection<TopicPartition> partitions) {
            for (TopicPartition tp : partitions) {
                Long position = positions.remove(tp);
                tenureStart.remove(tp);
                lastCommitted.remove(tp);
                if (zombie != null && position != null) {
                    zombie.keep(tp, position);
                }
            }
            log.flush();
        }
    }
}
