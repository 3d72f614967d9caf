package io.zkgroups.registry;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ImmutableTest {

    /** A key that counts how often it is compared. */
    private record Key(int value, AtomicInteger comparisons) implements Comparable<Key> {
        @Override
        public int compareTo(Key other) {
            comparisons.incrementAndGet();
            return Integer.compare(value, other.value);
        }
    }

    @Test
    void copiesKeepTheOrderAndNoLaterChangeShows() {
        List<String> source = new ArrayList<>(List.of("b", "a", "b"));
        Map<String, Integer> map = new LinkedHashMap<>(Map.of("x", 1));
        map.put("a", 2);

        List<String> list = Immutable.list(source);
        var set = Immutable.set(source);
        Map<String, Integer> mapCopy = Immutable.map(map);
        source.add("c");
        map.put("c", 3);

        assertThat(list).containsExactly("b", "a", "b");
        assertThat(set).containsExactly("b", "a");
        assertThat(mapCopy).containsExactly(Map.entry("x", 1), Map.entry("a", 2));
        assertThat(Stream.of("z", "y").collect(Immutable.toList())).containsExactly("z", "y");
        assertThatThrownBy(() -> list.add("d")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> set.clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> mapCopy.put("d", 4)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void rejectsNulls() {
        Map<String, Integer> nullValue = new HashMap<>();
        nullValue.put("a", null);

        assertThatThrownBy(() -> Immutable.list(Arrays.asList("a", null))).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Immutable.setOf("a", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Immutable.map(nullValue)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Immutable.sortedMap(nullValue)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Stream.of("a", null).collect(Immutable.toList()))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void sortedMapSortsNaturallyWhateverTheOrderOfItsInput() {
        TreeMap<String, Integer> reversed = new TreeMap<>(Comparator.reverseOrder());
        reversed.putAll(Map.of("a", 1, "b", 2, "c", 3));

        SortedMap<String, Integer> sorted = Immutable.sortedMap(reversed);
        reversed.put("d", 4);

        assertThat(sorted.keySet()).containsExactly("a", "b", "c");
        assertThat(sorted.comparator()).isNull();
        assertThatThrownBy(() -> sorted.remove("a")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void sortedByKeyComparesEachKeyOnceWhenTheyComeInOrder() {
        AtomicInteger comparisons = new AtomicInteger();
        List<Key> keys = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            keys.add(new Key(i, comparisons));
        }

        SortedMap<Key, Key> byKey = Immutable.sortedByKey(keys, k -> k);

        assertThat(comparisons.get()).isEqualTo(999);
        assertThat(byKey.keySet()).containsExactlyElementsOf(keys);
        assertThat(byKey.get(keys.get(500))).isSameAs(keys.get(500));
        assertThat(byKey.headMap(keys.get(3))).hasSize(3);
    }

    @Test
    void sortedByKeySortsValuesOutOfOrderAndKeepsTheLastOfEqualKeys() {
        SortedMap<Integer, String> byLength = Immutable.sortedByKey(List.of("ccc", "a", "bb", "dd"), String::length);

        assertThat(byLength).containsExactly(Map.entry(1, "a"), Map.entry(2, "dd"), Map.entry(3, "ccc"));
        assertThat(Immutable.sortedByKey(List.of("a", "b"), String::length)).containsExactly(Map.entry(1, "b"));
        assertThatThrownBy(() -> byLength.put(4, "eeee")).isInstanceOf(UnsupportedOperationException.class);
    }
}
