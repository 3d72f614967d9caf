package io.zkgroups.tool.group;

import io.zkgroups.registry.model.TopicAndPartition;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Infers a group's {@link MigrationPhase} from where its offsets are being written. Pure.
 * <p>
 * Kafka's Admin API does not tell when an offset was committed, ZooKeeper does (the offset znode's mtime),
 * so the inference compares values per partition and uses ZooKeeper mtimes, against ZooKeeper's time
 * ({@link ZooKeeperClock}), for freshness:
 * <ol>
 *   <li>no offset anywhere ⇒ {@code none}; only ZooKeeper has offsets ⇒ {@code zookeeper-only};
 *       only Kafka ⇒ {@code kafka-only};</li>
 *   <li>both stores agree on every partition ⇒ {@code dual-commit} (an idle group just migrated looks the
 *       same, and is treated the same: a reset must then write both stores);</li>
 *   <li>Kafka is ahead (or alone) on some partition and no ZooKeeper offset was written within
 *       {@code staleAfter} ⇒ {@code kafka-only} (nobody writes ZooKeeper any more);</li>
 *   <li>ZooKeeper is ahead (or alone) on some partition, Kafka is ahead nowhere, and no partition is equal in
 *       both stores with a fresh ZooKeeper write ⇒ {@code zookeeper-only} (Kafka holds an old copy);</li>
 *   <li>anything else ⇒ {@code dual-commit}: some partitions are written to both stores, or the group is in
 *       the middle of a rolling bounce between phases.</li>
 * </ol>
 * Freshness comes from the "committed only when changed" rule of 0.8.2.2: an active partition's znode is
 * rewritten at each auto-commit, so an mtime older than {@code staleAfter} on every partition means nobody
 * is committing to ZooKeeper.
 */
public final class PhaseInference {

    /** The inferred phase and the evidence, in words. */
    public record Result(MigrationPhase phase, String evidence) {
    }

    private PhaseInference() {
    }

    /**
     * @param zk        ZooKeeper offsets
     * @param zkMtimes  last write of each ZooKeeper offset znode
     * @param kafka     Kafka offsets, or null when Kafka was not queried
     * @param now       ZooKeeper's time of the reads (never a local clock: the mtimes are ZooKeeper's)
     * @param staleAfter a ZooKeeper offset not written for this long counts as stale
     */
    public static Result infer(Map<TopicAndPartition, Long> zk, Map<TopicAndPartition, Instant> zkMtimes,
                               Map<TopicAndPartition, Long> kafka, Instant now, Duration staleAfter) {
        Objects.requireNonNull(zk, "zk");
        Objects.requireNonNull(zkMtimes, "zkMtimes");
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(staleAfter, "staleAfter");
        if (kafka == null) {
            return new Result(MigrationPhase.UNKNOWN, "Kafka was not queried");
        }
        if (zk.isEmpty() && kafka.isEmpty()) {
            return new Result(MigrationPhase.NONE, "no offsets in ZooKeeper or Kafka");
        }
        if (kafka.isEmpty()) {
            return new Result(MigrationPhase.ZOOKEEPER_ONLY, "offsets only in ZooKeeper (" + zk.size() + " partitions)");
        }
        if (zk.isEmpty()) {
            return new Result(MigrationPhase.KAFKA_ONLY, "offsets only in Kafka (" + kafka.size() + " partitions)");
        }
        Instant freshSince = now.minus(staleAfter);
        Set<TopicAndPartition> all = new TreeSet<>(zk.keySet());
        all.addAll(kafka.keySet());
        int kafkaAhead = 0;
        int zkAhead = 0;
        int equalAndFresh = 0;
        boolean zkFresh = false;
        for (TopicAndPartition tp : all) {
            Long z = zk.get(tp);
            Long k = kafka.get(tp);
            Instant mtime = zkMtimes.get(tp);
            boolean fresh = z != null && mtime != null && !mtime.isBefore(freshSince);
            zkFresh |= fresh;
            if (z == null || (k != null && k > z)) {
                kafkaAhead++;
            } else if (k == null || z > k) {
                zkAhead++;
            } else if (fresh) {
                equalAndFresh++;
            }
        }
        if (kafkaAhead == 0 && zkAhead == 0) {
            return new Result(MigrationPhase.DUAL_COMMIT, "both stores agree on all " + all.size() + " partitions");
        }
        if (kafkaAhead > 0 && !zkFresh) {
            return new Result(MigrationPhase.KAFKA_ONLY, "Kafka ahead on " + kafkaAhead + " partitions and no ZooKeeper "
                    + "offset written in the last " + human(staleAfter));
        }
        if (kafkaAhead == 0 && equalAndFresh == 0) {
            return new Result(MigrationPhase.ZOOKEEPER_ONLY, "ZooKeeper ahead on " + zkAhead
                    + " partitions, Kafka ahead on none");
        }
        return new Result(MigrationPhase.DUAL_COMMIT, "mixed: ZooKeeper ahead on " + zkAhead + ", Kafka ahead on "
                + kafkaAhead + ", equal and recently written on " + equalAndFresh + " partitions");
    }

    static String human(Duration d) {
        long s = d.toSeconds();
        if (s % 3600 == 0 && s >= 3600) {
            return (s / 3600) + " h";
        }
        if (s % 60 == 0 && s >= 60) {
            return (s / 60) + " min";
        }
        return s + " s";
    }
}
