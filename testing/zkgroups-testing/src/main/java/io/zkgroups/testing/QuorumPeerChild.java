package io.zkgroups.testing;

import org.apache.zookeeper.server.quorum.QuorumPeerMain;

/** {@code QuorumPeerMain CONFIG} that exits when its parent goes away ({@link OrphanGuard}): a child-JVM ensemble server. */
public final class QuorumPeerChild {

    private QuorumPeerChild() {
    }

    public static void main(String[] args) {
        OrphanGuard.exitWhenStdinEnds();
        QuorumPeerMain.main(args);
    }
}
