package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.Immutable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Every {@code partition.assignment.strategy} this build knows: the config validates against it, the member
 * instantiates from it, the CLI lists it. A new assignor is its class plus one line in {@link #BUILT_IN}.
 */
public final class Assignors {

    private static final List<AssignorType> BUILT_IN = Immutable.listOf(
            AssignorType.legacy(PartitionAssignor.RANGE, RangeAssignor::new),
            AssignorType.legacy(PartitionAssignor.ROUND_ROBIN, RoundRobinAssignor::new),
            AssignorType.own(PartitionAssignor.STICKY, StickyAssignor::new, "docs/sticky.md")
                    .advertising(Collections.singletonMap(StickyCapability.KEY, StickyCapability.VERSION)));

    /** In registration order: the order of messages and help texts. */
    private static final Map<String, AssignorType> TYPES = new LinkedHashMap<>();

    static {
        BUILT_IN.forEach(Assignors::add);
    }

    private Assignors() {
    }

    /** A registration to undo, for assignors added at run time (tests, plug-ins). */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Adds {@code type} until the returned registration is closed.
     *
     * @throws IllegalArgumentException if its name is taken
     */
    public static Registration register(AssignorType type) {
        add(type);
        return () -> {
            synchronized (TYPES) {
                TYPES.remove(type.name(), type);
            }
        };
    }

    private static void add(AssignorType type) {
        Objects.requireNonNull(type, "assignor type cannot be null");
        synchronized (TYPES) {
            if (TYPES.putIfAbsent(type.name(), type) != null) {
                throw new IllegalArgumentException("an assignor named '" + type.name() + "' is already registered");
            }
        }
    }

    /** Every registered type, in registration order. */
    public static List<AssignorType> all() {
        synchronized (TYPES) {
            return Immutable.list(TYPES.values());
        }
    }

    /** The names, in registration order. */
    public static List<String> names() {
        return all().stream().map(AssignorType::name).collect(Immutable.toList());
    }

    /** The type named {@code name} exactly (case-sensitive), or null. */
    public static AssignorType find(String name) {
        synchronized (TYPES) {
            return TYPES.get(name);
        }
    }

    /** The names as a sentence: {@code range, roundrobin or sticky}. */
    public static String namesJoined(String lastSeparator) {
        return joined(names(), "", lastSeparator);
    }

    /** The names quoted: {@code 'range', 'roundrobin' and 'sticky'}. */
    static String namesQuoted() {
        return joined(names(), "'", " and ");
    }

    /** How each zkgroups-own assignor is documented: {@code sticky is zkgroups' own, see docs/sticky.md}. */
    public static String ownAssignorsNote() {
        List<String> notes = new ArrayList<>();
        for (AssignorType type : all()) {
            if (!type.legacy()) {
                notes.add(type.name() + " is zkgroups' own, see " + type.doc());
            }
        }
        return String.join("; ", notes);
    }

    private static String joined(List<String> names, String quote, String lastSeparator) {
        List<String> quoted = names.stream().map(n -> quote + n + quote).collect(Collectors.toList());
        if (quoted.size() < 2) {
            return String.join("", quoted);
        }
        return String.join(", ", quoted.subList(0, quoted.size() - 1)) + lastSeparator + quoted.get(quoted.size() - 1);
    }
}
