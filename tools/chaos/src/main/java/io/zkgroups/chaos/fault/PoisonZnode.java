package io.zkgroups.chaos.fault;

import io.zkgroups.chaos.cluster.ChaosCluster;
import io.zkgroups.chaos.cluster.ChaosException;
import io.zkgroups.chaos.cluster.MemberProcess;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

import static org.awaitility.Awaitility.await;

/**
 * Garbage written over a live znode of the group: a committed offset, a member's registration or a partition's
 * owner. The group gets 3 session timeouts to repair it (e.g. the owner's next commit overwrites an offset);
 * otherwise the run restores the original bytes, as an operator would after reading the error, and says so.
 * The writes come from a session the journal names ({@code POISON-SESSION}), so the monitor does not take them for
 * commits.
 */
final class PoisonZnode implements Fault {

    static final byte[] GARBAGE = "{chaos: not a valid value".getBytes(StandardCharsets.UTF_8);

    enum Target { OFFSET, REGISTRATION, OWNER }

    private final Target target;

    PoisonZnode(Target target) {
        this.target = target;
    }

    @Override
    public String name() {
        return "poison-" + target.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String description() {
        return switch (target) {
            case OFFSET -> "write garbage over a partition's committed offset in ZooKeeper";
            case REGISTRATION -> "write garbage over a live member's registration (/consumers/G/ids/...)";
            case OWNER -> "write garbage over a partition's owner znode";
        } + "; if the group has not replaced it after 3 session timeouts, the run restores the original bytes";
    }

    @Override
    public String inject(ChaosCluster cluster, Random random) {
        String group = cluster.settings().group();
        String topic = cluster.settings().topic();
        int partition = random.nextInt(cluster.settings().partitions());
        String path = switch (target) {
            case OFFSET -> "/consumers/" + group + "/offsets/" + topic + "/" + partition;
            case OWNER -> "/consumers/" + group + "/owners/" + topic + "/" + partition;
            case REGISTRATION -> {
                MemberProcess m = Faults.running(cluster, Faults.slot(cluster, random));
                yield "/consumers/" + group + "/ids/" + group + "_" + m.name();
            }
        };
        CuratorFramework zk = cluster.curator();
        try {
            Stat before = new Stat();
            byte[] original = zk.getData().storingStatIn(before).forPath(path);
            long session = zk.getZookeeperClient().getZooKeeper().getSessionId();
            cluster.journal().log("POISON-SESSION", Long.toHexString(session));
            cluster.journal().log("POISON", path);
            Stat poisoned = zk.setData().withVersion(before.getVersion()).forPath(path, GARBAGE);
            long start = System.nanoTime();
            // what an operator sees meanwhile: health once, without waiting
            io.zkgroups.chaos.cluster.HealthGate.Result seen = cluster.health().await(cluster.settings().groupSize(),
                    Duration.ZERO, Duration.ZERO);
            String health = "health exit " + seen.exitCode() + (seen.healthy() ? "" : " (" + firstFinding(seen.output()) + ")");
            boolean repaired = awaitRepair(zk, path, Duration.ofMillis(3L * Faults.sessionMs(cluster)));
            long ms = (System.nanoTime() - start) / 1_000_000;
            if (repaired) {
                return "garbage in " + path + "; " + health + "; the group replaced it after " + ms + " ms";
            }
            zk.setData().withVersion(poisoned.getVersion()).forPath(path, original);
            cluster.journal().log("RESTORED", path);
            return "garbage in " + path + "; " + health + "; NOT replaced by the group within " + ms
                    + " ms: original bytes restored";
        } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
            return "nothing poisoned: " + path + " changed or vanished meanwhile (" + e.code() + ")";
        } catch (Exception e) {
            throw new ChaosException("poisoning " + path + " failed: " + e, e);
        }
    }

    /** The first finding line of a health report (after its two header lines). */
    private static String firstFinding(String output) {
        String[] lines = output.split("\n");
        return lines.length > 3 ? lines[3].trim() : output.replace('\n', ' ');
    }

    private static boolean awaitRepair(CuratorFramework zk, String path, Duration timeout) {
        try {
            await("the group replaces the garbage in " + path).atMost(timeout).pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        try {
                            return !Arrays.equals(zk.getData().forPath(path), GARBAGE);
                        } catch (KeeperException.NoNodeException gone) {
                            return true;
                        }
                    });
            return true;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return false;
        }
    }
}
