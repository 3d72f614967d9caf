package io.zkgroups.tool.migrate;

/** Which way offsets are copied. */
public enum Direction {
    /** {@code migrate execute}: ZooKeeper ({@code /consumers/G/offsets}) into the group's Kafka offsets. */
    ZOOKEEPER_TO_KAFKA("zookeeper", "kafka"),
    /** {@code migrate rollback}: the group's Kafka offsets into ZooKeeper. */
    KAFKA_TO_ZOOKEEPER("kafka", "zookeeper");

    private final String source;
    private final String target;

    Direction(String source, String target) {
        this.source = source;
        this.target = target;
    }

    public String source() {
        return source;
    }

    public String target() {
        return target;
    }
}
