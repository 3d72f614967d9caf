package io.zkgroups.testing;

import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who holds which partition, as the members' rebalance listeners say (from {@code onPartitionsAssigned} to
 * {@code onPartitionsRevoked}/{@code Lost}), and every record delivered, each with its time: a violation is a
 * partition assigned to a member while another holds it, or a record delivered by a member that does not hold its
 * partition. Thread-safe.
 */
public final class HoldMonitor {

    /** A delivery: who, which partition, which offset, when ({@code System.nanoTime()}). */
    public record Delivery(String member, TopicPartition partition, long offset, long atNanos) {
    }

    /** A hold: who, which partition, from when, until when ({@code Long.MAX_VALUE} while it lasts). */
    public record Hold(String member, TopicPartition partition, long fromNanos, long untilNanos) {
    }

    private final Map<TopicPartition, String> holders = new HashMap<>();
    private final Map<TopicPartition, Long> heldSince = new HashMap<>();
    private final List<Hold> holds = new ArrayList<>();
    private final List<Delivery> deliveries = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();

    public synchronized void assigned(String member, Collection<TopicPartition> partitions) {
        long now = System.nanoTime();
        for (TopicPartition tp : partitions) {
            String holder = holders.get(tp);
            if (holder != null && !holder.equals(member)) {
                violations.add(tp + " assigned to " + member + " while " + holder + " holds it");
            }
            holders.put(tp, member);
            heldSince.put(tp, now);
        }
    }

    public synchronized void released(String member, Collection<TopicPartition> partitions) {
        long now = System.nanoTime();
        for (TopicPartition tp : partitions) {
            if (member.equals(holders.get(tp))) {
                holders.remove(tp);
                holds.add(new Hold(member, tp, heldSince.remove(tp), now));
            }
        }
    }

    public synchronized void delivered(String member, TopicPartition tp, long offset) {
        if (!member.equals(holders.get(tp))) {
            violations.add(member + " delivered " + tp + "@" + offset + " while " + holders.get(tp) + " holds it");
        }
        deliveries.add(new Delivery(member, tp, offset, System.nanoTime()));
    }

    public synchronized List<String> violations() {
        return List.copyOf(violations);
    }

    /** Deliveries of a (partition, offset) that had been delivered before: duplicates. */
    public synchronized long redeliveries() {
        Set<String> seen = new HashSet<>();
        long again = 0;
        for (Delivery d : deliveries) {
            if (!seen.add(d.partition() + "@" + d.offset())) {
                again++;
            }
        }
        return again;
    }

    /** Partitions {@code member} holds now. */
    public synchronized Set<TopicPartition> heldBy(String member) {
        Set<TopicPartition> held = new HashSet<>();
        holders.forEach((tp, holder) -> {
            if (holder.equals(member)) {
                held.add(tp);
            }
        });
        return held;
    }

    /** Partitions some member holds now. */
    public synchronized Set<TopicPartition> held() {
        return new HashSet<>(holders.keySet());
    }

    /**
     * Whether every one of {@code partitions} is held now by a hold that began after {@code sinceNanos} and has
     * delivered a record: the partition is fetched again after a switch at {@code sinceNanos}. The latest such first
     * delivery, or -1 if some partition is not there yet.
     */
    public synchronized long allFetchedAgainAfter(long sinceNanos, Collection<TopicPartition> partitions) {
        long latest = sinceNanos;
        for (TopicPartition tp : partitions) {
            String holder = holders.get(tp);
            Long since = heldSince.get(tp);
            if (holder == null || since < sinceNanos) {
                return -1;
            }
            long first = -1;
            for (Delivery d : deliveries) {
                if (d.partition().equals(tp) && d.member().equals(holder) && d.atNanos() >= since) {
                    first = d.atNanos();
                    break;
                }
            }
            if (first < 0) {
                return -1;
            }
            latest = Math.max(latest, first);
        }
        return latest;
    }

    /**
     * Whether every one of {@code partitions} is held now and its holder has delivered a record of it after
     * {@code sinceNanos}, whenever its hold began: the group fetches everything after a change that moves only some
     * partitions (a cooperative rebalance).
     */
    public synchronized boolean allDeliveredByTheirHolderAfter(long sinceNanos, Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            String holder = holders.get(tp);
            if (holder == null || deliveries.stream().noneMatch(d -> d.partition().equals(tp)
                    && d.member().equals(holder) && d.atNanos() >= sinceNanos)) {
                return false;
            }
        }
        return true;
    }
}
