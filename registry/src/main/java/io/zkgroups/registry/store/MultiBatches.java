package io.zkgroups.registry.store;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Splits the ops of one logical write into {@code multi()} requests ZooKeeper accepts: the server refuses a request
 * larger than {@code jute.maxbuffer} (1 MB unless configured, ~25,000 owner znodes) by closing the connection.
 * Batches stay under half of it, by an estimate of each op's size, and under {@link #MAX_OPS} ops.
 */
final class MultiBatches {

    static final int MAX_OPS = 1000;
    /** Estimated bytes of one op besides its path and data: headers, version, flags, an open ACL. */
    private static final int OP_OVERHEAD_BYTES = 64;

    private MultiBatches() {
    }

    /** The byte budget of one request: half of {@code jute.maxbuffer} (the client's setting, 1 MB by default). */
    static int maxBytes() {
        return Integer.getInteger("jute.maxbuffer", 0xfffff) / 2;
    }

    /**
     * {@code entries} in batches, in their iteration order; {@code payloadBytes} is the size of the path and data of
     * the op an entry becomes. An empty map gives no batch.
     */
    static <K, V> List<Map<K, V>> split(Map<K, V> entries, ToIntFunction<Map.Entry<K, V>> payloadBytes) {
        int maxBytes = maxBytes();
        List<Map<K, V>> batches = new ArrayList<>();
        Map<K, V> current = new LinkedHashMap<>();
        int bytes = 0;
        for (Map.Entry<K, V> entry : entries.entrySet()) {
            int size = payloadBytes.applyAsInt(entry) + OP_OVERHEAD_BYTES;
            if (!current.isEmpty() && (current.size() >= MAX_OPS || bytes + size > maxBytes)) {
                batches.add(current);
                current = new LinkedHashMap<>();
                bytes = 0;
            }
            current.put(entry.getKey(), entry.getValue());
            bytes += size;
        }
        if (!current.isEmpty()) {
            batches.add(current);
        }
        return batches;
    }
}
