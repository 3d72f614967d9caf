package io.zkgroups.tool.group;

/** Where a group's offsets are being written, as inferred by {@link PhaseInference}. */
public enum MigrationPhase {
    /** No offsets in either store. */
    NONE("none"),
    /** Offsets live in ZooKeeper only (0.8.2.2's default, {@code offsets.storage=zookeeper}). */
    ZOOKEEPER_ONLY("zookeeper-only"),
    /** Both stores are written ({@code offsets.storage=kafka} + {@code dual.commit.enabled=true}), or mixed. */
    DUAL_COMMIT("dual-commit"),
    /** Offsets live in Kafka only; ZooKeeper's are stale or absent. */
    KAFKA_ONLY("kafka-only"),
    /** Kafka was not queried (no --bootstrap-server and no broker in /brokers/ids). */
    UNKNOWN("unknown");

    private final String label;

    MigrationPhase(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
