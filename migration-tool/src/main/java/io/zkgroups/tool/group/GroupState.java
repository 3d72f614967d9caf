package io.zkgroups.tool.group;

/**
 * A ZooKeeper group's state, in the words of {@code kafka-consumer-groups}:
 * <ul>
 *   <li>{@code stable}: members registered, every partition of their topics owned by the thread the assignor
 *       gives it;</li>
 *   <li>{@code rebalancing}: members registered, but the owners do not (yet) match;</li>
 *   <li>{@code empty}: no member, but offsets are kept;</li>
 *   <li>{@code dead}: no member and no offset in either store (only empty directories are left).</li>
 * </ul>
 */
public enum GroupState {
    STABLE("stable"), REBALANCING("rebalancing"), EMPTY("empty"), DEAD("dead");

    private final String label;

    GroupState(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
