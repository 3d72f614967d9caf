package io.zkgroups.chaos.fault;

import io.zkgroups.chaos.cluster.ChaosCluster;

import java.util.Random;

/**
 * One kind of fault. {@link #inject} draws everything it chooses (target, duration) from {@code random} and
 * nothing from the cluster's state, so a seed replays the same sequence; it injects the fault and undoes it
 * (restart, heal, resume). The run then waits for the group to be healthy again.
 */
public interface Fault {

    /** The name used on the command line and in the report, e.g. {@code kill-member}. */
    String name();

    /** What the fault does, for the docs and {@code --list-faults}. */
    String description();

    /** Injects and undoes the fault; returns what was done, for the journal. */
    String inject(ChaosCluster cluster, Random random);
}
