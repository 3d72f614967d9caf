package io.zkgroups.chaos.cluster;

import org.apache.zookeeper.KeeperException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import static org.awaitility.Awaitility.await;

/** How far the group has consumed, judged by the offsets it committed in ZooKeeper. */
public final class Consumption {

    private Consumption() {
    }

    /** Whether every partition's committed offset in ZooKeeper reaches its end in {@code ends} within {@code atMost}. */
    public static boolean awaitCommittedPast(ChaosCluster cluster, Map<Integer, Long> ends, Duration atMost) {
        String base = "/consumers/" + cluster.settings().group() + "/offsets/" + cluster.settings().topic() + "/";
        try {
            await("the group commits past " + ends).atMost(atMost).pollInterval(Duration.ofMillis(200)).until(() -> {
                for (Map.Entry<Integer, Long> e : ends.entrySet()) {
                    try {
                        String v = new String(cluster.curator().getData().forPath(base + e.getKey()), StandardCharsets.UTF_8);
                        if (Long.parseLong(v.trim()) < e.getValue()) {
                            return false;
                        }
                    } catch (KeeperException.NoNodeException | NumberFormatException missing) {
                        return false;
                    }
                }
                return true;
            });
            return true;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return false;
        }
    }

    /** Stops the producer and waits until the group has committed past every acknowledged record (journal: DRAIN*). */
    public static void drain(ChaosCluster cluster, Journal journal, Duration atMost) {
        cluster.producer().stop();
        Map<Integer, Long> ends = cluster.producer().ackedEnds();
        journal.log("DRAIN", "acked ends " + ends);
        if (awaitCommittedPast(cluster, ends, atMost)) {
            journal.log("DRAINED", "");
        } else {
            journal.log("NOT-DRAINED", "within " + atMost.toSeconds() + " s: the monitor will name what is missing");
        }
    }
}
