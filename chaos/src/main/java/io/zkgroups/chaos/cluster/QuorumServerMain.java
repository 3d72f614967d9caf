package io.zkgroups.chaos.cluster;

import org.apache.zookeeper.server.quorum.QuorumPeerMain;

/** {@code QuorumPeerMain CONFIG} that exits when the orchestrator goes away ({@link OrphanGuard}). */
public final class QuorumServerMain {

    private QuorumServerMain() {
    }

    public static void main(String[] args) {
        OrphanGuard.exitWhenStdinEnds();
        QuorumPeerMain.main(args);
    }
}
