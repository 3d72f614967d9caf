package io.zkgroups.chaos.fault;

import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.chaos.cluster.MemberProcess;
import io.zkgroups.chaos.cluster.MemberSlot;

import java.util.Random;

/** SIGKILL of a member, then a new incarnation in its slot (the dead one's session lives on until it expires). */
final class KillMember implements Fault {

    @Override
    public String name() {
        return "kill-member";
    }

    @Override
    public String description() {
        return "kill -9 a member mid-stream and start a new one in its place; its partitions move once its "
                + "ZooKeeper session expires, from its last commit";
    }

    @Override
    public String inject(ChaosCluster cluster, Random random) {
        MemberSlot slot = Faults.slot(cluster, random);
        MemberProcess victim = Faults.running(cluster, slot);
        cluster.journal().log("KILL", victim.name());
        victim.jvm().kill();
        MemberProcess next = cluster.startMember(slot);
        return "SIGKILL " + victim.name() + ", started " + next.name();
    }
}
