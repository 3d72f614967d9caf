package io.zkgroups.chaos.fault;

import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.chaos.cluster.MemberProcess;
import io.zkgroups.chaos.cluster.MemberSlot;

import java.time.Duration;
import java.util.Random;

/**
 * A member whose application is slow exactly when the group rebalances: a slow {@code onPartitionsRevoked} (one
 * session timeout, within the members' revoke timeout of 1.25), or the processing of a batch (1.5 session timeouts
 * unless set). The rebalance is caused by another member's graceful restart: its leave gives the slow member more
 * partitions, its successor's join takes some back a JVM start (2-9 s) after the slowness began, so the revocation
 * times out (the consumer releases without a commit) only when the batch outlasts that start by the revoke timeout:
 * {@code --slow-processing-ms 10000} does at the default session.
 */
final class SlowCallback implements Fault {

    enum Kind { REVOKE, PROCESS }

    private final Kind kind;

    SlowCallback(Kind kind) {
        this.kind = kind;
    }

    @Override
    public String name() {
        return kind == Kind.REVOKE ? "slow-revoke" : "slow-processing";
    }

    @Override
    public String description() {
        return (kind == Kind.REVOKE
                ? "make one member's next onPartitionsRevoked take 1 session timeout (within its revoke timeout of 1.25)"
                : "make one member spend 1.5 x the session timeout processing a batch (--slow-processing-ms)")
                + ", then SIGTERM and restart another member so that the group rebalances meanwhile";
    }

    @Override
    public String inject(ChaosCluster cluster, Random random) {
        MemberSlot slowSlot = Faults.zkgroupsSlot(cluster, random);
        MemberSlot otherSlot = Faults.otherSlot(cluster, random, slowSlot);
        long millis = kind == Kind.REVOKE ? Faults.sessionMs(cluster) : cluster.settings().slowProcessingMs();
        MemberProcess other = Faults.running(cluster, otherSlot);
        if (slowSlot.legacy()) { // a group of 0.8.2.2 consumers only: they take no commands; the restart remains
            cluster.journal().log("TERM", other.name());
            int exit = other.jvm().terminate(Duration.ofSeconds(90));
            MemberProcess next = cluster.startMember(otherSlot);
            return "no zkgroups member to slow down: only " + other.name() + " left (exit " + exit + ") and "
                    + next.name() + " joined";
        }
        MemberProcess slow = Faults.running(cluster, slowSlot);
        int from = slow.jvm().lines().size();
        slow.jvm().send((kind == Kind.REVOKE ? "slow-revoke " : "slow-process ") + millis);
        if (kind == Kind.PROCESS) {
            slow.jvm().requireLine(from, l -> l.startsWith("SLOW-PROCESS "), Duration.ofSeconds(30), "SLOW-PROCESS");
        }
        cluster.journal().log("TERM", other.name());
        int exit = other.jvm().terminate(Duration.ofSeconds(90));
        MemberProcess next = cluster.startMember(otherSlot);
        return slow.name() + " slow (" + kind.name().toLowerCase() + ", " + millis + " ms) while " + other.name()
                + " left (exit " + exit + ") and " + next.name() + " joined";
    }
}
