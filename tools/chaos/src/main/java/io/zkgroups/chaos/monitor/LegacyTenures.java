package io.zkgroups.chaos.monitor;

import io.zkgroups.chaos.monitor.History.MemberEvent;
import io.zkgroups.chaos.monitor.History.OffsetWrite;
import io.zkgroups.chaos.monitor.History.OwnerChange;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rebalance and commit events of real 0.8.2.2 consumers, which print neither, rebuilt from ZooKeeper's history:
 * {@code ASSIGNED} when the consumer's owner znode is created, {@code REVOKED} when the consumer deletes it (0.8.2.2
 * commits, then releases), {@code LOST} when its session's end deletes it, and a {@code COMMIT}/{@code COMMITTED}
 * pair for every offset its sessions write. A 0.8.2.2 hand-out is stamped when the orchestrator read its line, a
 * little after it happened, so a tenure's end is moved {@link #READ_SLACK_NANOS} later.
 */
final class LegacyTenures {

    /** How late a 0.8.2.2 hand-out may be stamped: the pipe to the orchestrator and its reader thread. */
    static final long READ_SLACK_NANOS = 50_000_000;

    private LegacyTenures() {
    }

    static Map<String, List<MemberEvent>> enrich(Map<String, List<MemberEvent>> events, Set<String> legacy,
                                                 List<OwnerChange> owners, List<OffsetWrite> offsets) {
        Map<String, List<MemberEvent>> result = new TreeMap<>(events);
        Map<Long, String> sessionOwner = new HashMap<>();
        Map<Integer, String> ownerOf = new HashMap<>();
        Map<String, List<MemberEvent>> added = new HashMap<>();
        for (OwnerChange c : owners) {
            String previous = ownerOf.get(c.partition());
            if (c.cause() == OwnerChange.Cause.CREATE && legacy.contains(c.owner())) {
                sessionOwner.put(c.session(), c.owner());
                added.computeIfAbsent(c.owner(), k -> new ArrayList<>())
                        .add(new MemberEvent(c.nanos(), "ASSIGNED", Set.of(c.partition()), Map.of(), "from ZooKeeper"));
            }
            if (c.owner() == null && previous != null && legacy.contains(previous)) {
                String kind = c.cause() == OwnerChange.Cause.SESSION_END ? "LOST" : "REVOKED";
                added.computeIfAbsent(previous, k -> new ArrayList<>()).add(new MemberEvent(c.nanos() + READ_SLACK_NANOS,
                        kind, Set.of(c.partition()), Map.of(), "from ZooKeeper"));
            }
            if (c.cause() != OwnerChange.Cause.SET) {
                ownerOf.put(c.partition(), c.owner());
            }
        }
        for (OffsetWrite w : offsets) {
            String process = sessionOwner.get(w.session());
            if (process != null && w.value() != null) {
                List<MemberEvent> list = added.computeIfAbsent(process, k -> new ArrayList<>());
                list.add(new MemberEvent(w.nanos(), "COMMIT", Set.of(), Map.of(w.partition(), w.value()), "from ZooKeeper"));
                list.add(new MemberEvent(w.nanos(), "COMMITTED", Set.of(), Map.of(), ""));
            }
        }
        added.forEach((process, list) -> {
            List<MemberEvent> merged = new ArrayList<>(result.getOrDefault(process, List.of()));
            merged.addAll(list);
            merged.sort(Comparator.comparingLong(MemberEvent::nanos)); // stable: a COMMIT stays before its COMMITTED
            result.put(process, merged);
        });
        return result;
    }
}
