package io.zkgroups.registry.model;

import java.util.Locale;
import java.util.Optional;

/** Which coordinator a group's members follow: ZooKeeper (0.8's protocol, the default) or Kafka's group coordinator. */
public enum Coordinator {
    ZOOKEEPER, KAFKA;

    /** The name in the decision znode and on the command line: {@code zookeeper} or {@code kafka}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The coordinator called {@code label}, if any. */
    public static Optional<Coordinator> parse(String label) {
        for (Coordinator c : values()) {
            if (c.label().equals(label)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
