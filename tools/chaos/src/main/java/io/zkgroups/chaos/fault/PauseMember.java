package io.zkgroups.chaos.fault;

import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.chaos.cluster.MemberProcess;
import io.zkgroups.chaos.cluster.MemberSlot;

import java.util.Random;

/** SIGSTOP of a member for 1.5 session timeouts (its session expires, others take over), then SIGCONT. */
final class PauseMember implements Fault {

    @Override
    public String name() {
        return "pause-member";
    }

    @Override
    public String description() {
        return "SIGSTOP a member for 1.5 x the session timeout (a GC pause or a frozen VM), then SIGCONT: its session "
                + "has expired and others own its partitions, so it must not hand out anything it fetched before";
    }

    @Override
    public String inject(ChaosCluster cluster, Random random) {
        MemberSlot slot = Faults.slot(cluster, random);
        MemberProcess victim = Faults.running(cluster, slot);
        long millis = Faults.sessionMs(cluster) * 3 / 2;
        cluster.journal().log("STOP", victim.name());
        victim.jvm().signal("STOP");
        Faults.hold(millis);
        victim.jvm().signal("CONT");
        cluster.journal().log("CONT", victim.name());
        return "SIGSTOP " + victim.name() + " for " + millis + " ms, then SIGCONT";
    }
}
