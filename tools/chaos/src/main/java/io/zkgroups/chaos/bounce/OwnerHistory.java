package io.zkgroups.chaos.bounce;

import io.zkgroups.chaos.monitor.History.OwnerChange;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Who owned each partition when, from ZooKeeper's owner znode history (in zxid order). An owner is the consumer id
 * its owner znode names (one consumer thread per member in these runs, so a consumer id is a thread); null while the
 * znode is absent.
 */
final class OwnerHistory {

    private final Map<Integer, List<OwnerChange>> byPartition = new TreeMap<>();

    OwnerHistory(List<OwnerChange> changes, int partitions) {
        for (int p = 0; p < partitions; p++) {
            byPartition.put(p, new ArrayList<>());
        }
        List<OwnerChange> ordered = new ArrayList<>(changes);
        ordered.sort(Comparator.comparingLong(OwnerChange::zxid));
        ordered.forEach(c -> byPartition.computeIfAbsent(c.partition(), k -> new ArrayList<>()).add(c));
    }

    /**
     * Ownership moves in {@code (from, to]}: how many times a partition's owner znode came to name a consumer other
     * than the last one that owned it (a release and a claim by the same consumer is not a move).
     */
    int moves(long from, long to) {
        int moves = 0;
        for (List<OwnerChange> list : byPartition.values()) {
            String last = null;
            for (OwnerChange c : list) {
                if (c.owner() == null) {
                    continue;
                }
                if (c.nanos() > from && c.nanos() <= to && last != null && !c.owner().equals(last)) {
                    moves++;
                }
                if (c.nanos() <= to) {
                    last = c.owner();
                }
            }
        }
        return moves;
    }

    /** Partitions whose owner at {@code to} is not their owner at {@code from} (net moves between two moments). */
    int netMoves(long from, long to) {
        int moves = 0;
        for (List<OwnerChange> list : byPartition.values()) {
            if (!Objects.equals(ownerAt(list, from), ownerAt(list, to))) {
                moves++;
            }
        }
        return moves;
    }

    /** Partition-seconds in {@code [from, to)} during which a partition had no owner znode. */
    double unownedSeconds(long from, long to) {
        long unowned = 0;
        for (List<OwnerChange> list : byPartition.values()) {
            String owner = ownerAt(list, from);
            long since = from;
            for (OwnerChange c : list) {
                if (c.nanos() <= from) {
                    continue;
                }
                if (c.nanos() >= to) {
                    break;
                }
                if (owner == null) {
                    unowned += c.nanos() - since;
                }
                owner = c.owner();
                since = c.nanos();
            }
            if (owner == null) {
                unowned += to - since;
            }
        }
        return unowned / 1e9;
    }

    private static String ownerAt(List<OwnerChange> list, long t) {
        String owner = null;
        for (OwnerChange c : list) {
            if (c.nanos() > t) {
                break;
            }
            owner = c.owner();
        }
        return owner;
    }
}
