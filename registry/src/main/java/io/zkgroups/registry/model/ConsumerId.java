package io.zkgroups.registry.model;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.zkgroups.registry.ZkNames;

import java.util.Objects;
import java.util.UUID;

/**
 * A consumer id (0.8.2.2 {@code consumerIdString}): the znode name under {@code /consumers/G/ids}.
 * <p>
 * Format: {@code group + "_" + consumer.id} when {@code consumer.id} is set, otherwise
 * {@code group + "_" + hostname + "-" + millis + "-" + hex8} where {@code hex8} is the first 8 characters of
 * {@code Long.toHexString(uuid.getMostSignificantBits())} — no leading zeros, exactly like 0.8.2.2.
 * Ordered like 0.8.2.2: by {@code String.compareTo}.
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
public final class ConsumerId implements Comparable<ConsumerId> {
    private final String value;

    /**
     * Accepts any id a znode can carry, because other clients (0.8.2.2 does not validate
     * {@code consumer.id}) may have registered ids outside the 0.8 charset. Ids this library creates go
     * through {@link #ofOverride} or {@link #generated}, which validate strictly.
     */
    public ConsumerId(String value) {
        Objects.requireNonNull(value, "consumer id cannot be null");
        if (value.isEmpty() || value.indexOf('/') >= 0 || value.equals(".") || value.equals("..")) {
            throw new IllegalArgumentException("invalid consumer id '" + value + "': not a znode name");
        }
        this.value = value;
    }

    /** {@code group_consumerId}: the form used when {@code consumer.id} is configured. */
    public static ConsumerId ofOverride(String group, String consumerIdOverride) {
        ZkNames.requireValid("group id", group);
        ZkNames.requireValid("consumer.id", consumerIdOverride);
        return new ConsumerId(group + "_" + consumerIdOverride);
    }

    /** The generated form {@code group_host-millis-hex8}. */
    public static ConsumerId generated(String group, String hostname, long millis, UUID uuid) {
        ZkNames.requireValid("group id", group);
        String hex = Long.toHexString(uuid.getMostSignificantBits());
        // 0.8.2.2 takes substring(0, 8) of the unpadded hex; an msb below 2^28 would make it throw there,
        // here it stays total by taking what there is.
        String hex8 = hex.substring(0, Math.min(8, hex.length()));
        return new ConsumerId(group + "_" + sanitizeHost(hostname) + "-" + millis + "-" + hex8);
    }

    /** A host name may be anything the resolver returns; keep only characters legal in a znode name here. */
    static String sanitizeHost(String hostname) {
        String cleaned = hostname == null ? "" : hostname.replaceAll("[^a-zA-Z0-9._-]", "_");
        return cleaned.isEmpty() || cleaned.equals(".") || cleaned.equals("..") ? "unknown-host" : cleaned;
    }

    /** Thread id {@code n} of this consumer ({@code CID-n}). */
    public ThreadId thread(int n) {
        return new ThreadId(this, n);
    }

    @Override
    public int compareTo(ConsumerId other) {
        return value.compareTo(other.value);
    }

    @Override
    public boolean equals(Object other) {
        // Written out, like hashCode: the generated ones go through method handles, slow before the JIT has run,
        // and these run for every row of every assignment.
        return this == other || other instanceof ConsumerId && value.equals(((ConsumerId) other).value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return value;
    }

    public String value() {
        return value;
    }
}
