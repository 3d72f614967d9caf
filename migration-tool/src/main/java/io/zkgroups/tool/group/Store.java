package io.zkgroups.tool.group;

/** One of the two places a 0.8 group's offsets can live. */
public enum Store {
    ZOOKEEPER("zookeeper"), KAFKA("kafka");

    private final String label;

    Store(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
