package io.zkgroups.tool.migrate;

import io.zkgroups.registry.model.TopicAndPartition;

import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What migrating one group's offsets from one store to the other does, partition by partition. Pure: the
 * same inputs always give the same plan, so {@code migrate plan} shows exactly what {@code migrate execute}
 * will do, and a re-run after a crash plans only what is left (idempotence).
 * <p>
 * Offsets mean the same in both stores: the next offset to consume. They are copied unchanged (no ±1).
 * The plan never moves a target offset backwards unless {@code allowRewind}; a target ahead of the source is
 * {@link MoveAction#SKIP_REWIND}. Example, ZooKeeper → Kafka, {@code allowRewind=false}:
 * <pre>
 * partition  zookeeper  kafka   action
 * [t,0]      100        -       COPY       (kafka := 100)
 * [t,1]      100        90      ADVANCE    (kafka := 100)
 * [t,2]      100        100     IN_SYNC
 * [t,3]      100        120     SKIP_REWIND (kafka stays 120)
 * </pre>
 */
public record MigrationPlan(String group, Direction direction, boolean allowRewind, List<Move> moves) {

    /** One partition's comparison and the action taken. */
    public record Move(PartitionComparison comparison, MoveAction action) {
        public TopicAndPartition partition() {
            return comparison.partition();
        }
    }

    public MigrationPlan {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(direction, "direction");
        moves = List.copyOf(moves);
    }

    /**
     * Plans the migration of {@code group}.
     *
     * @param source   offsets in the source store
     * @param target   offsets in the target store
     * @param existing partitions that exist in the cluster, or null when unknown
     */
    public static MigrationPlan compute(String group, Direction direction, Map<TopicAndPartition, Long> source,
                                        Map<TopicAndPartition, Long> target, Collection<TopicAndPartition> existing,
                                        boolean allowRewind) {
        List<Move> moves = PartitionComparison.compare(source, target, existing).stream()
                .map(c -> new Move(c, action(c.relation(), allowRewind)))
                .toList();
        return new MigrationPlan(group, direction, allowRewind, moves);
    }

    static MoveAction action(Relation relation, boolean allowRewind) {
        return switch (relation) {
            case EQUAL -> MoveAction.IN_SYNC;
            case TARGET_MISSING -> MoveAction.COPY;
            case TARGET_BEHIND -> MoveAction.ADVANCE;
            case TARGET_AHEAD -> allowRewind ? MoveAction.REWIND : MoveAction.SKIP_REWIND;
            case TARGET_ONLY -> MoveAction.TARGET_ONLY;
            case SOURCE_INVALID -> MoveAction.SKIP_INVALID;
            case NO_SUCH_PARTITION -> MoveAction.SKIP_NO_PARTITION;
        };
    }

    /** The offsets to write to the target store. */
    public Map<TopicAndPartition, Long> writes() {
        Map<TopicAndPartition, Long> writes = new TreeMap<>();
        for (Move m : moves) {
            if (m.action().writes()) {
                writes.put(m.partition(), m.comparison().source());
            }
        }
        return writes;
    }

    /** How many partitions get each action (every action present, zero included). */
    public Map<MoveAction, Integer> counts() {
        Map<MoveAction, Integer> counts = new EnumMap<>(MoveAction.class);
        for (MoveAction a : MoveAction.values()) {
            counts.put(a, 0);
        }
        moves.forEach(m -> counts.merge(m.action(), 1, Integer::sum));
        return counts;
    }

    public int count(MoveAction action) {
        return counts().get(action);
    }

    /** True when executing this plan leaves a partition whose target is ahead of its source. */
    public boolean skipsRewinds() {
        return moves.stream().anyMatch(m -> m.action() == MoveAction.SKIP_REWIND);
    }

    /** True when the plan writes nothing. */
    public boolean isNoop() {
        return moves.stream().noneMatch(m -> m.action().writes());
    }
}
