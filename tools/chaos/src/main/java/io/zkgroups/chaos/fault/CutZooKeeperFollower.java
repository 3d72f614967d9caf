package io.zkgroups.chaos.fault;

import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.chaos.cluster.ChaosException;
import io.zkgroups.testing.TestEnsemble;
import io.zkgroups.testing.TcpProxy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** A ZooKeeper follower loses its quorum links (its clients still reach it) for two session timeouts. */
final class CutZooKeeperFollower implements Fault {

    @Override
    public String name() {
        return "cut-zk-follower";
    }

    @Override
    public String description() {
        return "close every quorum and election link of one ZooKeeper follower (TCP proxies) for 2 x the session "
                + "timeout while its client port stays reachable: it stops serving, its clients must move to the "
                + "other servers; then the links heal and it rejoins";
    }

    @Override
    public String inject(ChaosCluster cluster, Random random) {
        TestEnsemble zk = cluster.ensemble();
        int choice = random.nextInt(2);
        long millis = Faults.sessionMs(cluster) * 2;
        zk.awaitQuorum(ChaosCluster.RECOVERY_TIMEOUT);
        int leader = zk.soleLeader().orElseThrow(() -> new ChaosException("no single ZooKeeper leader"));
        List<Integer> followers = new ArrayList<>();
        for (int id = 1; id <= ChaosCluster.ZOOKEEPER_SERVERS; id++) {
            if (id != leader) {
                followers.add(id);
            }
        }
        int victim = followers.get(choice);
        cluster.journal().log("CUT", "zk" + victim);
        zk.isolate(victim, TcpProxy.Mode.CUT);
        long cut = System.nanoTime();
        zk.awaitNotServing(victim, Duration.ofSeconds(30));
        long noticedMs = (System.nanoTime() - cut) / 1_000_000;
        Faults.hold(millis);
        boolean stayedOut = zk.mode(victim).isEmpty();
        zk.heal(victim);
        cluster.journal().log("HEAL", "zk" + victim);
        zk.awaitServing(victim, ChaosCluster.RECOVERY_TIMEOUT);
        return "cut follower zk" + victim + " from the quorum (leader zk" + leader + "); it stopped serving after "
                + noticedMs + " ms; " + (stayedOut ? "still out" : "SERVING AGAIN") + " when healed " + millis + " ms later";
    }
}
