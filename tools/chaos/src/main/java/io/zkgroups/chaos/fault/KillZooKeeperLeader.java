package io.zkgroups.chaos.fault;

import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.chaos.cluster.ChaosException;
import io.zkgroups.testing.TestEnsemble;

import java.util.Random;

/** SIGKILL of the ZooKeeper leader; the other two elect a new one; the old leader restarts with its data. */
final class KillZooKeeperLeader implements Fault {

    @Override
    public String name() {
        return "kill-zk-leader";
    }

    @Override
    public String description() {
        return "kill -9 the ZooKeeper leader; the two others elect a new leader (clients move, sessions survive), "
                + "then the old leader restarts from its data directory and rejoins as a follower";
    }

    @Override
    public String inject(ChaosCluster cluster, Random random) {
        TestEnsemble zk = cluster.ensemble();
        zk.awaitQuorum(ChaosCluster.RECOVERY_TIMEOUT);
        int leader = zk.soleLeader().orElseThrow(() -> new ChaosException("no single ZooKeeper leader"));
        cluster.journal().log("KILL", "zk" + leader);
        zk.kill(leader);
        long killed = System.nanoTime();
        zk.awaitQuorum(ChaosCluster.RECOVERY_TIMEOUT);
        long electedMs = (System.nanoTime() - killed) / 1_000_000;
        int newLeader = zk.soleLeader().orElse(-1);
        zk.restart(leader);
        zk.awaitServing(leader, ChaosCluster.RECOVERY_TIMEOUT);
        return "SIGKILL zk" + leader + " (leader); zk" + newLeader + " leads after " + electedMs + " ms; zk" + leader
                + " restarted and serves";
    }
}
