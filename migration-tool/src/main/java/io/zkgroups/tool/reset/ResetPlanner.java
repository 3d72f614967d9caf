package io.zkgroups.tool.reset;

import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.tool.group.MigrationPhase;
import io.zkgroups.tool.group.Store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Plans {@code offsets reset}. Pure: facts in, plan out.
 * <p>
 * <b>Current offset</b> = what a member would start from: ZooKeeper's offset in the {@code zookeeper-only}
 * phase, Kafka's in {@code kafka-only}, and the larger of the two otherwise (0.8.2.2 with dual commit reads
 * {@code max(ZooKeeper, Kafka)}).
 * <p>
 * <b>Target</b>: earliest / latest log offset; the current offset ({@code to-current}, {@code shift-by});
 * the given offset; the first offset at the timestamp (the log end when no message is that recent); or the
 * file's offset. Targets outside {@code [earliest, latest]} are clamped into it (and the row says so), like
 * {@code kafka-consumer-groups}. A partition with no current offset cannot be shifted or kept: it is skipped.
 * <p>
 * <b>Stores</b> (unless {@code --store} overrides): the phase's own store — ZooKeeper in {@code zookeeper-only}
 * (and when Kafka was not queried or no offset exists yet), Kafka in {@code kafka-only}, both in
 * {@code dual-commit} — plus the other store wherever it already holds an offset for the partition. A stale
 * offset left in the other store would come back: 0.8.2.2 members with dual commit read the maximum of
 * both, and {@code migrate} copies it forward. A store already holding the target is not rewritten.
 */
public final class ResetPlanner {

    private ResetPlanner() {
    }

    /**
     * @param override the stores given with {@code --store}, or null for the phase rule
     * @param facts    one entry per partition in scope (for {@code FromFile}, the file's partitions)
     */
    public static ResetPlan plan(String group, ResetStrategy strategy, MigrationPhase phase, Set<Store> override,
                                 List<PartitionFacts> facts) {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(strategy, "strategy");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(facts, "facts");
        if (override != null && override.isEmpty()) {
            throw new IllegalArgumentException("--store needs at least one store");
        }
        List<PartitionFacts> sorted = new ArrayList<>(facts);
        sorted.sort(Comparator.comparing(PartitionFacts::partition));
        List<ResetRow> rows = new ArrayList<>();
        for (PartitionFacts f : sorted) {
            rows.add(row(f, strategy, phase, override));
        }
        return new ResetPlan(group, strategy.describe(), phase, storeRule(phase, override), rows);
    }

    static Long current(PartitionFacts f, MigrationPhase phase) {
        return switch (phase) {
            case ZOOKEEPER_ONLY -> f.zk();
            case KAFKA_ONLY -> f.kafka();
            default -> max(f.zk(), f.kafka());
        };
    }

    private static Long max(Long a, Long b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return Math.max(a, b);
    }

    private static ResetRow row(PartitionFacts f, ResetStrategy strategy, MigrationPhase phase, Set<Store> override) {
        Long current = current(f, phase);
        Long requested;
        String note = "";
        if (strategy instanceof ResetStrategy.ToEarliest) {
            requested = f.earliest();
            if (requested == null) {
                return skipped(f, current, "log start offset unknown");
            }
        } else if (strategy instanceof ResetStrategy.ToLatest) {
            requested = f.latest();
            if (requested == null) {
                return skipped(f, current, "log end offset unknown");
            }
        } else if (strategy instanceof ResetStrategy.ToCurrent) {
            if (current == null) {
                return skipped(f, null, "no committed offset");
            }
            requested = current;
        } else if (strategy instanceof ResetStrategy.ToOffset to) {
            requested = to.offset();
        } else if (strategy instanceof ResetStrategy.ShiftBy shift) {
            if (current == null) {
                return skipped(f, null, "no committed offset to shift");
            }
            requested = saturatedAdd(current, shift.delta());
        } else if (strategy instanceof ResetStrategy.ToTimestamp) {
            if (f.atTimestamp() != null) {
                requested = f.atTimestamp();
            } else if (f.latest() != null) {
                requested = f.latest();
                note = "no message at or after the time: log end";
            } else {
                return skipped(f, current, "offset at the time unknown");
            }
        } else if (strategy instanceof ResetStrategy.FromFile file) {
            requested = file.offsets().get(f.partition());
            if (requested == null) {
                return skipped(f, current, "not in the file");
            }
        } else {
            throw new IllegalArgumentException("unknown strategy " + strategy);
        }
        long target = requested;
        if (f.earliest() != null && target < f.earliest()) {
            target = f.earliest();
            note = join(note, requested + " is below the log start " + f.earliest() + ": clamped");
        } else if (f.latest() != null && target > f.latest()) {
            target = f.latest();
            note = join(note, requested + " is beyond the log end " + f.latest() + ": clamped");
        }
        if (target < 0) {
            target = 0;
            note = join(note, requested + " is negative: clamped to 0");
        }
        Set<Store> stores = stores(f, phase, override);
        boolean writeZk = stores.contains(Store.ZOOKEEPER) && !Long.valueOf(target).equals(f.zk());
        boolean writeKafka = stores.contains(Store.KAFKA) && !Long.valueOf(target).equals(f.kafka());
        if (!writeZk && !writeKafka) {
            note = join(note, "unchanged");
        }
        return new ResetRow(f.partition(), f.zk(), f.kafka(), f.earliest(), f.latest(), current, target, writeZk,
                writeKafka, note);
    }

    static Set<Store> stores(PartitionFacts f, MigrationPhase phase, Set<Store> override) {
        if (override != null) {
            return EnumSet.copyOf(override);
        }
        Set<Store> stores = switch (phase) {
            case KAFKA_ONLY -> EnumSet.of(Store.KAFKA);
            case DUAL_COMMIT -> EnumSet.of(Store.ZOOKEEPER, Store.KAFKA);
            case UNKNOWN -> EnumSet.of(Store.ZOOKEEPER);
            case ZOOKEEPER_ONLY, NONE -> EnumSet.of(Store.ZOOKEEPER);
        };
        if (phase != MigrationPhase.UNKNOWN) {
            if (f.zk() != null) {
                stores.add(Store.ZOOKEEPER);
            }
            if (f.kafka() != null) {
                stores.add(Store.KAFKA);
            }
        }
        return stores;
    }

    static String storeRule(MigrationPhase phase, Set<Store> override) {
        if (override != null) {
            return "writing " + (override.size() == 2 ? "ZooKeeper and Kafka" : override.iterator().next().label())
                    + " only, as requested with --store";
        }
        return switch (phase) {
            case DUAL_COMMIT -> "dual-commit phase: writing both ZooKeeper and Kafka, because 0.8.2.2 members with "
                    + "dual commit read max(ZooKeeper, Kafka) and would undo a rewind written to one store only";
            case ZOOKEEPER_ONLY -> "zookeeper-only phase: writing ZooKeeper, and Kafka where it holds an offset too "
                    + "(a stale higher Kafka offset would win once members read max(ZooKeeper, Kafka))";
            case KAFKA_ONLY -> "kafka-only phase: writing Kafka, and ZooKeeper where it holds an offset too "
                    + "(a stale higher ZooKeeper offset would win after a rollback to dual commit)";
            case NONE -> "no offsets yet: writing ZooKeeper (0.8.2.2's default offsets.storage)";
            case UNKNOWN -> "Kafka not queried: writing ZooKeeper only";
        };
    }

    private static ResetRow skipped(PartitionFacts f, Long current, String why) {
        return new ResetRow(f.partition(), f.zk(), f.kafka(), f.earliest(), f.latest(), current, null, false, false,
                "skipped: " + why);
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            return b < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }

    private static String join(String a, String b) {
        return a.isEmpty() ? b : a + "; " + b;
    }

    /** Exposed for tests: the current offset rule. */
    public static Long currentOffset(PartitionFacts f, MigrationPhase phase) {
        return current(f, phase);
    }

    /** Exposed for messages: the partitions a plan would write at all. */
    public static List<TopicAndPartition> written(ResetPlan plan) {
        return plan.rows().stream().filter(ResetRow::writes).map(ResetRow::partition).toList();
    }
}
