package io.zkgroups.chaos.fault;

import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.chaos.cluster.MemberProcess;
import io.zkgroups.chaos.cluster.MemberSlot;

import java.time.Duration;
import java.util.Random;

/** SIGTERM of a member (a graceful leave: revoke, commit, release), then a new incarnation. */
final class TerminateMember implements Fault {

    @Override
    public String name() {
        return "term-member";
    }

    @Override
    public String description() {
        return "SIGTERM a member (graceful leave: its listener commits, it releases and unregisters) and start a "
                + "new one in its place";
    }

    @Override
    public String inject(ChaosCluster cluster, Random random) {
        MemberSlot slot = Faults.slot(cluster, random);
        MemberProcess victim = Faults.running(cluster, slot);
        cluster.journal().log("TERM", victim.name());
        int exit = victim.jvm().terminate(Duration.ofSeconds(60));
        MemberProcess next = cluster.startMember(slot);
        return "SIGTERM " + victim.name() + " (exit " + exit + "), started " + next.name();
    }
}
