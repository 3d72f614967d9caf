package io.zkgroups.rebalancer.offsets;

import io.zkgroups.registry.Immutable;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Every {@code offsets.storage} this build knows: the config validates against it, the consumer opens its store
 * and counts its commits by it. A new store is its class plus one line here.
 * <p>
 * Thread-safe: the table of types is guarded by a lock.
 */
public final class OffsetStores {

    private static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(30);

    /** 0.8.2.2's default: {@code /consumers/G/offsets}. */
    public static final OffsetStoreType ZOOKEEPER = OffsetStoreType.of("zookeeper",
            (registry, admin) -> new ZkOffsets(registry.offsets()));

    /** Kafka's group offsets, through the Admin API. */
    public static final OffsetStoreType KAFKA = OffsetStoreType.of("kafka",
            (registry, admin) -> new KafkaOffsets(admin, KAFKA_TIMEOUT, false)).onKafka();

    /** In registration order: the order of messages. */
    private static final Map<String, OffsetStoreType> TYPES = new LinkedHashMap<>();

    static {
        add(ZOOKEEPER);
        add(KAFKA);
    }

    private OffsetStores() {
    }

    /** A registration to undo, for stores added at run time (tests, plug-ins). */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Adds {@code type} until the returned registration is closed.
     *
     * @throws IllegalArgumentException if its name is taken
     */
    public static Registration register(OffsetStoreType type) {
        add(type);
        return () -> {
            synchronized (TYPES) {
                TYPES.remove(key(type.name()), type);
            }
        };
    }

    private static void add(OffsetStoreType type) {
        Objects.requireNonNull(type, "offset store type cannot be null");
        synchronized (TYPES) {
            if (TYPES.putIfAbsent(key(type.name()), type) != null) {
                throw new IllegalArgumentException("an offset store named '" + type.name() + "' is already registered");
            }
        }
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    /** The type named {@code name}, ignoring case (as 0.8.2.2 compares {@code offsets.storage}), or null. */
    public static OffsetStoreType find(String name) {
        if (name == null) {
            return null;
        }
        synchronized (TYPES) {
            return TYPES.get(key(name));
        }
    }

    /** Every registered type, in registration order. */
    public static List<OffsetStoreType> all() {
        synchronized (TYPES) {
            return Immutable.list(TYPES.values());
        }
    }

    /** The names as a sentence: {@code zookeeper or kafka}. */
    public static String namesJoined() {
        List<String> names = all().stream().map(OffsetStoreType::name).collect(Immutable.toList());
        return names.size() < 2 ? String.join("", names)
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }
}
