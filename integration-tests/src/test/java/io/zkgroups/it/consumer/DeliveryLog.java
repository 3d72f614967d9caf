package io.zkgroups.it.consumer;

import io.zkgroups.it.support.LegacyConsumerProcess;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

/** Every record every member handed to the application, in the order it happened, and the checks on it. */
final class DeliveryLog {

    record Delivery(String member, TopicPartition partition, long offset, long sequence) {
    }

    private final ConcurrentLinkedQueue<Delivery> deliveries = new ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicLong sequence = new java.util.concurrent.atomic.AtomicLong();

    void record(String member, TopicPartition partition, long offset) {
        deliveries.add(new Delivery(member, partition, offset, sequence.incrementAndGet()));
    }

    /**
     * Copies a 0.8.2.2 consumer's MSG lines into this log under {@code name} as they arrive, on a daemon thread that
     * ends when the process has exited (join it then: every line has been read).
     */
    Thread follow(LegacyConsumerProcess legacy, String name) {
        Thread t = new Thread(() -> {
            int next = 0;
            try {
                while (true) {
                    int i = legacy.awaitLine(next, l -> l.startsWith("MSG "), Duration.ofMinutes(10), "MSG");
                    String[] f = legacy.output().get(i).split(" ", 5); // MSG topic partition offset key value
                    record(name, new TopicPartition(f[1], Integer.parseInt(f[2])), Long.parseLong(f[3]));
                    next = i + 1;
                }
            } catch (AssertionError exited) {
                // stdout closed: every line has been read
            }
        }, "follow-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    int size() {
        return deliveries.size();
    }

    /** Every delivery so far, in the order they were recorded. */
    List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    /** The member that delivered the latest record of {@code partition}, or null before any. */
    String lastDeliverer(TopicPartition partition) {
        Delivery last = null;
        for (Delivery d : deliveries) {
            if (d.partition().equals(partition) && (last == null || d.sequence() > last.sequence())) {
                last = d;
            }
        }
        return last == null ? null : last.member();
    }

    /** Distinct (partition, offset) pairs delivered. */
    long distinct() {
        return deliveries.stream().map(d -> d.partition() + "@" + d.offset()).distinct().count();
    }

    /** Each record delivered more than once, with who delivered it in order: {@code t-0@17: n1#40, l2#95}. */
    List<String> duplicates() {
        Map<String, List<Delivery>> byRecord = new TreeMap<>();
        deliveries.forEach(d -> byRecord.computeIfAbsent(d.partition() + "@" + d.offset(), k -> new ArrayList<>()).add(d));
        List<String> result = new ArrayList<>();
        byRecord.forEach((record, list) -> {
            if (list.size() > 1) {
                result.add(record + ": " + String.join(", ", list.stream().map(d -> d.member() + "#" + d.sequence()).toList()));
            }
        });
        return result;
    }

    /**
     * The deliveries of a 0.8.2.2 member that the next owner made again because 0.8.2.2 handed the record out after
     * its release commit: its iterator keeps the record {@code hasNext()} already took (clearing the stream drops the
     * chunk, not that record), so {@code next()} returns it after the commit has been written, and the next owner,
     * starting at the committed offset, delivers it too. Recognised narrowly: a record delivered exactly twice, the
     * legacy member's last of that partition and the other member's first.
     */
    List<Delivery> legacyRecordsDeliveredAfterTheirCommit(Predicate<String> isLegacy) {
        Map<String, List<Delivery>> byRecord = new HashMap<>();
        Map<String, long[]> range = new HashMap<>(); // member + partition -> {lowest, highest} offset delivered
        for (Delivery d : deliveries) {
            byRecord.computeIfAbsent(d.partition() + "@" + d.offset(), k -> new ArrayList<>()).add(d);
            range.merge(d.member() + " " + d.partition(), new long[] {d.offset(), d.offset()},
                    (a, b) -> new long[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
        }
        List<Delivery> result = new ArrayList<>();
        for (List<Delivery> twice : byRecord.values()) {
            if (twice.size() != 2) {
                continue;
            }
            Delivery legacy = twice.stream().filter(d -> isLegacy.test(d.member())).findFirst().orElse(null);
            Delivery next = twice.stream().filter(d -> !isLegacy.test(d.member())).findFirst().orElse(null);
            if (legacy != null && next != null
                    && range.get(legacy.member() + " " + legacy.partition())[1] == legacy.offset()
                    && range.get(next.member() + " " + next.partition())[0] == next.offset()) {
                result.add(legacy);
            }
        }
        return result;
    }

    /**
     * The log to check hand-overs on: this one without {@link #legacyRecordsDeliveredAfterTheirCommit}, which are
     * printed (prefixed with {@code test}) when there are any.
     */
    DeliveryLog handOvers(Predicate<String> isLegacy, String test) {
        List<Delivery> afterCommit = legacyRecordsDeliveredAfterTheirCommit(isLegacy);
        if (!afterCommit.isEmpty()) {
            System.out.println(test + ": 0.8.2.2 handed out after its release commit " + afterCommit);
        }
        return without(afterCommit);
    }

    /** A log of the same deliveries but {@code left}. */
    private DeliveryLog without(Collection<Delivery> left) {
        DeliveryLog rest = new DeliveryLog();
        deliveries.stream().filter(d -> !left.contains(d)).forEach(rest.deliveries::add);
        return rest;
    }

    /** Offsets of {@code partition} never delivered, below {@code end}. */
    List<Long> missing(TopicPartition partition, long end) {
        Set<Long> seen = new java.util.HashSet<>();
        deliveries.stream().filter(d -> d.partition().equals(partition)).forEach(d -> seen.add(d.offset()));
        List<Long> missing = new ArrayList<>();
        for (long o = 0; o < end; o++) {
            if (!seen.contains(o)) {
                missing.add(o);
            }
        }
        return missing;
    }

    /**
     * Moves of each partition between members, in delivery order: where the next member started relative
     * to where the previous one stopped. {@code overlap > 0} means re-delivered records (duplicates);
     * {@code overlap < 0} would mean skipped records.
     */
    List<Move> moves() {
        Map<TopicPartition, List<Delivery>> byPartition = new HashMap<>();
        deliveries.forEach(d -> byPartition.computeIfAbsent(d.partition(), k -> new ArrayList<>()).add(d));
        List<Move> result = new ArrayList<>();
        byPartition.forEach((tp, list) -> {
            list.sort(Comparator.comparingLong(Delivery::sequence));
            Delivery previous = null;
            long highest = -1;
            for (Delivery d : list) {
                if (previous != null && !previous.member().equals(d.member())) {
                    result.add(new Move(tp, previous.member(), d.member(), highest, d.offset()));
                }
                highest = Math.max(highest, d.offset());
                previous = d;
            }
        });
        return result;
    }

    /** Partitions in which two members delivered records interleaved (A, B, A with B in between). */
    Map<TopicPartition, String> interleavings(Set<String> membersThatLeftAndCameBack) {
        Map<TopicPartition, String> result = new TreeMap<>(Comparator.comparing(TopicPartition::toString));
        Map<TopicPartition, List<Delivery>> byPartition = new HashMap<>();
        deliveries.forEach(d -> byPartition.computeIfAbsent(d.partition(), k -> new ArrayList<>()).add(d));
        byPartition.forEach((tp, list) -> {
            list.sort(Comparator.comparingLong(Delivery::sequence));
            List<String> runs = new ArrayList<>();
            for (Delivery d : list) {
                if (runs.isEmpty() || !runs.get(runs.size() - 1).equals(d.member())) {
                    runs.add(d.member());
                }
            }
            for (int i = 0; i < runs.size(); i++) {
                for (int j = i + 2; j < runs.size(); j++) {
                    if (runs.get(i).equals(runs.get(j)) && !membersThatLeftAndCameBack.contains(runs.get(i))) {
                        result.put(tp, String.join(" -> ", runs));
                    }
                }
            }
        });
        return result;
    }

    record Move(TopicPartition partition, String from, String to, long lastOfPrevious, long firstOfNext) {
        long overlap() {
            return lastOfPrevious + 1 - firstOfNext;
        }
    }
}
