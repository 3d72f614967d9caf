package io.zkgroups.registry.store;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MultiBatchesTest {

    private static Map<String, Integer> entries(int count, int payloadBytes) {
        Map<String, Integer> entries = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            entries.put("/p/" + i, payloadBytes);
        }
        return entries;
    }

    private static List<String> flatten(List<Map<String, Integer>> batches) {
        List<String> keys = new ArrayList<>();
        batches.forEach(batch -> keys.addAll(batch.keySet()));
        return keys;
    }

    @Test
    void nothingMakesNoBatch() {
        assertThat(MultiBatches.split(Map.<String, Integer>of(), e -> 1)).isEmpty();
    }

    @Test
    void smallOpsAreCappedByCount() {
        Map<String, Integer> entries = entries(2 * MultiBatches.MAX_OPS + 1, 10);

        List<Map<String, Integer>> batches = MultiBatches.split(entries, Map.Entry::getValue);

        assertThat(batches).extracting(Map::size).containsExactly(MultiBatches.MAX_OPS, MultiBatches.MAX_OPS, 1);
        assertThat(flatten(batches)).containsExactlyElementsOf(entries.keySet());
    }

    @Test
    void largeOpsAreCappedByHalfOfJuteMaxBuffer() {
        int payload = MultiBatches.maxBytes() / 10; // about 10 ops per batch
        Map<String, Integer> entries = entries(25, payload);

        List<Map<String, Integer>> batches = MultiBatches.split(entries, Map.Entry::getValue);

        assertThat(batches).hasSizeGreaterThan(2);
        assertThat(batches).allSatisfy(batch -> assertThat(batch.size() * payload).isLessThanOrEqualTo(MultiBatches.maxBytes()));
        assertThat(flatten(batches)).containsExactlyElementsOf(entries.keySet());
    }

    @Test
    void anOpLargerThanTheBudgetStillGoesAloneInsteadOfBeingDropped() {
        Map<String, Integer> entries = entries(2, MultiBatches.maxBytes() + 1);

        assertThat(MultiBatches.split(entries, Map.Entry::getValue)).extracting(Map::size).containsExactly(1, 1);
    }
}
