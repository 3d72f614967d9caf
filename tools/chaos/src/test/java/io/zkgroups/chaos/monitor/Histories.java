package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.Ack;
import io.zkgroups.chaos.monitor.History.Delivery;
import io.zkgroups.chaos.monitor.History.MemberEvent;
import io.zkgroups.chaos.monitor.History.OffsetWrite;
import io.zkgroups.chaos.monitor.History.OwnerChange;
import io.zkgroups.chaos.monitor.History.ProcessEnd;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Synthetic histories for the monitor's tests; times are given in milliseconds. */
final class Histories {

    private final List<Ack> acks = new ArrayList<>();
    private final List<Delivery> deliveries = new ArrayList<>();
    private final Map<String, List<MemberEvent>> events = new TreeMap<>();
    private final Map<String, ProcessEnd> ends = new HashMap<>();
    private final List<OwnerChange> owners = new ArrayList<>();
    private final List<OffsetWrite> offsets = new ArrayList<>();
    private final Map<Integer, Long> unhealthy = new TreeMap<>();
    private List<History.KafkaCommit> kafkaCommits;
    private final java.util.NavigableMap<Long, String> faults = new TreeMap<>();
    private final List<History.Span> brokerDown = new ArrayList<>();
    private long groupFormed = Long.MIN_VALUE;
    private final Map<String, String> consumerIds = new HashMap<>();
    private boolean zkKnown;
    private final Map<Integer, Long> notResumed = new TreeMap<>();
    private final List<String> unchecked = new ArrayList<>();
    private long zxid;

    static long ms(long millis) {
        return millis * 1_000_000;
    }

    /** Offsets {@code from..to} of {@code partition} acknowledged at {@code atMs}. */
    Histories acked(int partition, long from, long to, long atMs) {
        for (long o = from; o <= to; o++) {
            acks.add(new Ack(partition, o, ms(atMs)));
        }
        return this;
    }

    Histories assigned(String process, long atMs, Integer... partitions) {
        return event(process, atMs, "ASSIGNED", Set.of(partitions), Map.of());
    }

    Histories revoked(String process, long atMs, Integer... partitions) {
        return event(process, atMs, "REVOKED", Set.of(partitions), Map.of());
    }

    Histories lost(String process, long atMs, Integer... partitions) {
        return event(process, atMs, "LOST", Set.of(partitions), Map.of());
    }

    /** Offsets {@code from..to} of {@code partition} handed out by {@code process} in one poll at {@code atMs}. */
    Histories handedOut(String process, int partition, long from, long to, long atMs) {
        events.computeIfAbsent(process, k -> new ArrayList<>());
        for (long o = from; o <= to; o++) {
            deliveries.add(new Delivery(process, partition, o, ms(atMs)));
        }
        return this;
    }

    /** A commit of {@code offset} for {@code partition} that returned at {@code atMs}. */
    Histories committed(String process, int partition, long offset, long atMs) {
        event(process, atMs, "COMMIT", Set.of(), Map.of(partition, offset));
        return event(process, atMs, "COMMITTED", Set.of(), Map.of());
    }

    /** {@code process}'s owner znodes name {@code consumerId} (a slot restarting by session hand-over). */
    Histories consumerId(String process, String consumerId) {
        consumerIds.put(process, consumerId);
        return this;
    }

    Histories killed(String process, long atMs) {
        ends.put(process, new ProcessEnd(ms(atMs), "KILLED"));
        return this;
    }

    /** {@code process} ended without a kill or a CLOSED line (it crashed, or exited without leaving). */
    Histories vanished(String process, long atMs) {
        ends.put(process, new ProcessEnd(ms(atMs), "VANISHED"));
        return this;
    }

    Histories closed(String process, long atMs) {
        event(process, atMs, "CLOSED", Set.of(), Map.of());
        ends.put(process, new ProcessEnd(ms(atMs), "CLOSED"));
        return this;
    }

    /** ZooKeeper's owner of {@code partition} became {@code process} (null: none) at {@code atMs}. */
    Histories owner(int partition, String process, long atMs) {
        zkKnown = true;
        owners.add(new OwnerChange(ms(atMs), ++zxid, partition, process, 0x1,
                process == null ? OwnerChange.Cause.DELETE : OwnerChange.Cause.CREATE));
        return this;
    }

    /** A commit of {@code value} by ZooKeeper session {@code session} (owner znodes of {@link #owner} are 0x1's). */
    Histories offsetWrittenBy(int partition, long value, long session, long atMs) {
        zkKnown = true;
        offsets.add(new OffsetWrite(ms(atMs), ++zxid, partition, value, session, false));
        return this;
    }

    Histories offsetWritten(int partition, Long value, boolean injected, long atMs) {
        zkKnown = true;
        offsets.add(new OffsetWrite(ms(atMs), ++zxid, partition, value, injected ? 0xbad : 0x1, injected));
        return this;
    }

    /** The group committed {@code offset} for {@code partition} in __consumer_offsets at {@code atMs} (-1: deleted). */
    Histories kafkaCommitted(int partition, long offset, long atMs) {
        if (kafkaCommits == null) {
            kafkaCommits = new ArrayList<>();
        }
        kafkaCommits.add(new History.KafkaCommit(ms(atMs), kafkaCommits.size(), partition, offset));
        return this;
    }

    /** A REVOKE-TIMEOUT line, and the LOST after it: the consumer released the partitions without a commit. */
    Histories revokeTimedOut(String process, long atMs, Integer... partitions) {
        event(process, atMs, "REVOKE-TIMEOUT", Set.of(partitions), Map.of());
        return event(process, atMs, "LOST", Set.of(partitions), Map.of());
    }

    /** Any member log line: {@code offset} non-null gives it {@code partition=offset} (a COMMIT's). */
    Histories event(String process, long atMs, String kind, int partition, Long offset) {
        return event(process, atMs, kind, Set.of(), offset == null ? Map.of() : Map.of(partition, offset));
    }

    /** restart-broker: the broker was stopped at {@code fromMs} and ran again at {@code untilMs}. */
    Histories brokerDown(long fromMs, long untilMs) {
        brokerDown.add(new History.Span(ms(fromMs), ms(untilMs)));
        return this;
    }

    /** A revocation slower than the revoke timeout: REVOKED, its commit refused, then REVOKE-TIMEOUT. */
    Histories revokedPastTimeout(String process, long atMs, Integer... partitions) {
        event(process, atMs, "REVOKED", Set.of(partitions), Map.of());
        event(process, atMs + 1, "COMMIT-FAILED", Set.of(), Map.of());
        return event(process, atMs + 2, "REVOKE-TIMEOUT", Set.of(partitions), Map.of());
    }

    /** The group was first healthy at {@code atMs}. */
    Histories groupFormed(long atMs) {
        groupFormed = ms(atMs);
        return this;
    }

    Histories fault(int index, String name, long atMs) {
        faults.put(ms(atMs), "#" + index + " " + name);
        return this;
    }

    Histories zooKeeperKnown() {
        zkKnown = true;
        return this;
    }

    /** The group was healthy after {@code fault} but did not commit past what was acknowledged within {@code ms}. */
    Histories notResumedAfter(int fault, long ms) {
        notResumed.put(fault, ms);
        return this;
    }

    /** A check could not run, e.g. a log was missing. */
    Histories unchecked(String why) {
        unchecked.add(why);
        return this;
    }

    Histories unhealthyAfter(int fault, long ms) {
        unhealthy.put(fault, ms);
        return this;
    }

    private Histories event(String process, long atMs, String kind, Set<Integer> partitions, Map<Integer, Long> offsets) {
        events.computeIfAbsent(process, k -> new ArrayList<>())
                .add(new MemberEvent(ms(atMs), kind, partitions, new LinkedHashMap<>(offsets), ""));
        return this;
    }

    History build() {
        return new History(acks, deliveries, events, ends, owners, offsets, zkKnown, unhealthy, Set.of(), kafkaCommits,
                faults, brokerDown, groupFormed, consumerIds, notResumed, unchecked);
    }

    Verdict check() {
        return check(60_000);
    }

    Verdict check(long stallBoundMs) {
        return InvariantMonitor.check(build(), new InvariantMonitor.Bounds(java.time.Duration.ofMillis(stallBoundMs),
                java.time.Duration.ofMillis(5)));
    }

    /**
     * Checked with a run's configuration: commit interval, produce rate per partition, session timeout and
     * max.poll.records; every unclean end's window is judged against the bound they give.
     */
    Verdict checkWindows(long commitIntervalMs, double recordsPerSecondPerPartition, long sessionMs, long maxPollRecords) {
        return InvariantMonitor.check(build(), new InvariantMonitor.Bounds(java.time.Duration.ofSeconds(60),
                java.time.Duration.ofMillis(5), java.time.Duration.ofMillis(commitIntervalMs), recordsPerSecondPerPartition,
                java.time.Duration.ofMillis(sessionMs), maxPollRecords, 0));
    }

    /**
     * Checked with zkgroups members capped at {@code maxUncommittedRecords}, next to the rate bound of the other
     * settings (which only 0.8.2.2 consumers, listed in {@code legacy}, are judged by).
     */
    Verdict checkCapped(long maxUncommittedRecords, long commitIntervalMs, double recordsPerSecondPerPartition,
                        long sessionMs, long maxPollRecords, Set<String> legacy) {
        History h = build();
        History withLegacy = new History(h.acks(), h.deliveries(), h.events(), h.processEnds(), h.owners(), h.offsets(),
                h.zkHistoryKnown(), h.unhealthy(), legacy, h.kafkaCommits(), h.faults(), h.brokerDown(),
                h.groupFormed(), h.consumerIds(), h.notResumed(), h.unchecked());
        return InvariantMonitor.check(withLegacy, new InvariantMonitor.Bounds(java.time.Duration.ofSeconds(60),
                java.time.Duration.ofMillis(5), java.time.Duration.ofMillis(commitIntervalMs), recordsPerSecondPerPartition,
                java.time.Duration.ofMillis(sessionMs), maxPollRecords, maxUncommittedRecords));
    }
}
