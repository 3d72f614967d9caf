package io.zkgroups.chaos.fault;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every fault by name, and the sets a run draws from. */
public final class FaultCatalog {

    private static final Map<String, Fault> ALL = new LinkedHashMap<>();

    static {
        for (Fault f : List.of(
                new KillMember(),
                new TerminateMember(),
                new PauseMember(),
                new KillZooKeeperLeader(),
                new CutZooKeeperFollower(),
                new MemberLinkFault(MemberLinkFault.Link.ZOOKEEPER, MemberLinkFault.Kind.LATENCY),
                new MemberLinkFault(MemberLinkFault.Link.ZOOKEEPER, MemberLinkFault.Kind.STALL),
                new MemberLinkFault(MemberLinkFault.Link.KAFKA, MemberLinkFault.Kind.LATENCY),
                new MemberLinkFault(MemberLinkFault.Link.KAFKA, MemberLinkFault.Kind.STALL),
                new RestartBroker(),
                new BrokerDownRebalance(BrokerDownRebalance.Kind.STOPPED),
                new BrokerDownRebalance(BrokerDownRebalance.Kind.UNRESPONSIVE),
                new AddPartitions(),
                new PoisonZnode(PoisonZnode.Target.OFFSET),
                new PoisonZnode(PoisonZnode.Target.REGISTRATION),
                new PoisonZnode(PoisonZnode.Target.OWNER),
                new SlowCallback(SlowCallback.Kind.REVOKE),
                new SlowCallback(SlowCallback.Kind.PROCESS),
                new MigrateExecute())) {
            ALL.put(f.name(), f);
        }
    }

    private FaultCatalog() {
    }

    public static List<Fault> all() {
        return List.copyOf(ALL.values());
    }

    /**
     * The faults named in a comma-separated list; {@code all} for every one.
     *
     * @throws IllegalArgumentException naming an unknown fault and the known ones
     */
    public static List<Fault> parse(String names) {
        if (names.equals("all")) {
            return all();
        }
        List<Fault> faults = new ArrayList<>();
        for (String name : names.split(",")) {
            Fault f = ALL.get(name.trim());
            if (f == null) {
                throw new IllegalArgumentException("unknown fault '" + name.trim() + "'; known: " + String.join(", ", ALL.keySet()));
            }
            faults.add(f);
        }
        return faults;
    }
}
