package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.Delivery;
import io.zkgroups.chaos.monitor.History.OwnerChange;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Records handed out by a process that did not own the partition: by its own account (no tenure: no
 * {@code ASSIGNED} before it without a {@code REVOKED}/{@code LOST} in between) or by ZooKeeper's (the owner znode
 * named another member, or none, throughout {@code [t - tolerance, t + tolerance]}; the tolerance absorbs the
 * millisecond resolution of ZooKeeper's transaction times). One violation per run of consecutive such records.
 * A 0.8.2.2 consumer's tenures are ZooKeeper's history already ({@link LegacyTenures}): only they are checked.
 * Owner znodes name consumer ids: a process's is the one its {@code START} line gives (the processes of a slot that
 * restarts by session hand-over share one), else its name.
 */
final class Ownership {

    private Ownership() {
    }

    static void check(DeliveryIndex deliveries, Tenures tenures, List<OwnerChange> owners, boolean zkKnown,
                      java.util.Set<String> legacy, java.util.function.UnaryOperator<String> consumerIds, long toleranceNanos,
                      List<Violation> out) {
        Map<Integer, List<OwnerChange>> byPartition = new HashMap<>();
        owners.forEach(c -> byPartition.computeIfAbsent(c.partition(), k -> new ArrayList<>()).add(c));
        // zxid order is the truth; around a leader change the millisecond times may step back a little
        byPartition.values().forEach(list -> list.sort(java.util.Comparator.comparingLong(OwnerChange::nanos)
                .thenComparingLong(OwnerChange::zxid)));
        for (int partition : deliveries.partitions()) {
            List<OwnerChange> changes = byPartition.getOrDefault(partition, List.of());
            String episode = null;
            for (Delivery d : deliveries.of(partition)) {
                String problem = null;
                if (legacy.contains(d.process()) && !zkKnown) {
                    // a 0.8.2.2 consumer's tenures come from ZooKeeper's history: nothing to check it against
                } else if (tenures.at(d.process(), partition, d.nanos()).isEmpty()) {
                    problem = legacy.contains(d.process()) ? "ZooKeeper's owner znode was not its (0.8.2.2 consumer)"
                            : "not assigned by its own rebalance listener";
                } else if (zkKnown && !legacy.contains(d.process())
                        && !ownedAround(changes, consumerIds.apply(d.process()), d.nanos(),
                        toleranceNanos)) {
                    problem = "ZooKeeper's owner znode named " + ownerAt(changes, d.nanos());
                }
                String key = problem == null ? null : d.process() + problem;
                if (key != null && !key.equals(episode)) {
                    out.add(new Violation("ownership", partition, d.offset(), d.process(), d.nanos(),
                            d.process() + " handed out offset " + d.offset() + " while " + problem));
                }
                episode = key;
            }
        }
    }

    private static boolean ownedAround(List<OwnerChange> changes, String process, long nanos, long tolerance) {
        int i = lastAtOrBefore(changes, nanos - tolerance);
        if (i >= 0 && process.equals(changes.get(i).owner())) {
            return true;
        }
        for (int k = i + 1; k < changes.size() && changes.get(k).nanos() <= nanos + tolerance; k++) {
            if (process.equals(changes.get(k).owner())) {
                return true;
            }
        }
        return false;
    }

    private static String ownerAt(List<OwnerChange> changes, long nanos) {
        int i = lastAtOrBefore(changes, nanos);
        return i < 0 ? null : changes.get(i).owner();
    }

    /** Index of the last change at or before {@code nanos}, -1 if none (binary search). */
    private static int lastAtOrBefore(List<OwnerChange> changes, long nanos) {
        int lo = 0;
        int hi = changes.size() - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (changes.get(mid).nanos() <= nanos) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }
}
