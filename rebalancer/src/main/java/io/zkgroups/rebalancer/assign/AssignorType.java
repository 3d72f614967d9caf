package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.Immutable;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One {@code partition.assignment.strategy} as registered in {@link Assignors}: its name, how to make it, and what the
 * config, the member registration and the CLI need to know about it.
 */
public final class AssignorType {

    private final String name;
    private final Supplier<PartitionAssignor> factory;
    private final boolean legacy;
    private final String doc;
    private final Map<String, String> capabilities;

    private AssignorType(String name, Supplier<PartitionAssignor> factory, boolean legacy, String doc,
                         Map<String, String> capabilities) {
        this.name = Objects.requireNonNull(name, "name cannot be null");
        this.factory = Objects.requireNonNull(factory, "factory cannot be null");
        this.legacy = legacy;
        this.doc = Objects.requireNonNull(doc, "doc cannot be null");
        this.capabilities = Immutable.map(capabilities);
    }

    /** An assignor of 0.8.2.2 itself: real 0.8.2.2 members of the group may run it too. */
    public static AssignorType legacy(String name, Supplier<PartitionAssignor> factory) {
        return new AssignorType(name, factory, true, "", Collections.<String, String>emptyMap());
    }

    /** One of zkgroups' own, documented in {@code doc} (a path such as {@code docs/sticky.md}). */
    public static AssignorType own(String name, Supplier<PartitionAssignor> factory, String doc) {
        return new AssignorType(name, factory, false, doc, Collections.<String, String>emptyMap());
    }

    /**
     * This type, whose members must advertise {@code entries} in their registration's capability key (besides
     * {@code assignor}): the group learns from them who computes this assignor. Advertising is then always on.
     */
    public AssignorType advertising(Map<String, String> entries) {
        return new AssignorType(name, factory, legacy, doc, entries);
    }

    /** The value of {@code partition.assignment.strategy}, compared exactly. */
    public String name() {
        return name;
    }

    /** A new assignor of this type. */
    public PartitionAssignor create() {
        return factory.get();
    }

    /** Whether 0.8.2.2 has it. */
    public boolean legacy() {
        return legacy;
    }

    /** Where a zkgroups-own assignor is documented; empty for 0.8.2.2's. */
    public String doc() {
        return doc;
    }

    /** Whether members running it always advertise capabilities ({@link #advertising}). */
    public boolean requiresCapabilities() {
        return !capabilities.isEmpty();
    }

    /** The capability entries its members advertise besides {@code assignor}. */
    public Map<String, String> capabilities() {
        return capabilities;
    }

    @Override
    public String toString() {
        return name;
    }
}
