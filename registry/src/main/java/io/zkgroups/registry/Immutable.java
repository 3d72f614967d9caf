package io.zkgroups.registry;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collector;
import java.util.stream.Collectors;

/**
 * Unmodifiable copies of collections, with Java 8 alone: the libraries run beside whatever Guava an application
 * pins. Each copies its input (later changes to it do not show), keeps its order and rejects nulls.
 */
public final class Immutable {

    private Immutable() {
    }

    /** An unmodifiable copy of {@code elements}, in their order. */
    public static <E> List<E> list(Collection<? extends E> elements) {
        return Collections.unmodifiableList(noNulls(new ArrayList<>(elements)));
    }

    /** An unmodifiable list of {@code elements}. */
    @SafeVarargs
    public static <E> List<E> listOf(E... elements) {
        return list(Arrays.asList(elements));
    }

    /** Collects into an unmodifiable list, in encounter order. */
    public static <E> Collector<E, ?, List<E>> toList() {
        return Collectors.collectingAndThen(Collectors.toCollection(ArrayList::new),
                list -> Collections.unmodifiableList(noNulls(list)));
    }

    /** An unmodifiable copy of {@code elements}, in their order (the first of equal ones). */
    public static <E> Set<E> set(Collection<? extends E> elements) {
        return Collections.unmodifiableSet(noNulls(new LinkedHashSet<>(elements)));
    }

    /** An unmodifiable set of {@code elements}, in their order. */
    @SafeVarargs
    public static <E> Set<E> setOf(E... elements) {
        return set(Arrays.asList(elements));
    }

    /** An unmodifiable copy of {@code map}, in its order. */
    public static <K, V> Map<K, V> map(Map<? extends K, ? extends V> map) {
        return Collections.unmodifiableMap(noNulls(new LinkedHashMap<>(map)));
    }

    /** An unmodifiable copy of {@code map} sorted by key; linear time when it is a sorted map in natural order. */
    public static <K, V> SortedMap<K, V> sortedMap(Map<K, ? extends V> map) {
        TreeMap<K, V> copy = map instanceof SortedMap && inNaturalOrder((SortedMap<K, ? extends V>) map)
                ? new TreeMap<>((SortedMap<K, ? extends V>) map) // takes the entries in order: no comparison
                : new TreeMap<>(map);
        return Collections.unmodifiableSortedMap(noNulls(copy));
    }

    /**
     * {@code values} by their key, sorted; of equal keys the last value stays. Linear time when the values come in
     * ascending key order (only that order is checked), as a list of znodes is read.
     */
    public static <K extends Comparable<? super K>, V> SortedMap<K, V> sortedByKey(
            Iterable<? extends V> values, Function<? super V, ? extends K> key) {
        List<Map.Entry<K, V>> entries = new ArrayList<>();
        boolean ascending = true;
        K last = null;
        for (V value : values) {
            K k = Objects.requireNonNull(key.apply(Objects.requireNonNull(value)));
            ascending = ascending && (last == null || last.compareTo(k) < 0);
            entries.add(new AbstractMap.SimpleImmutableEntry<>(k, value));
            last = k;
        }
        TreeMap<K, V> sorted = new TreeMap<>();
        if (ascending) {
            sorted.putAll(new Ascending<>(entries)); // TreeMap builds from a sorted map in linear time
        } else {
            entries.forEach(e -> sorted.put(e.getKey(), e.getValue()));
        }
        return Collections.unmodifiableSortedMap(sorted);
    }

    /** Whether {@code map} is sorted by its keys' natural order. */
    public static boolean inNaturalOrder(SortedMap<?, ?> map) {
        Comparator<?> comparator = map.comparator();
        return comparator == null || comparator.equals(Comparator.naturalOrder());
    }

    private static <C extends Collection<?>> C noNulls(C elements) {
        for (Object element : elements) {
            Objects.requireNonNull(element, "null element");
        }
        return elements;
    }

    private static <M extends Map<?, ?>> M noNulls(M map) {
        map.forEach((k, v) -> {
            Objects.requireNonNull(k, "null key");
            Objects.requireNonNull(v, () -> "null value of key " + k);
        });
        return map;
    }

    /**
     * Entries in strictly ascending key order, as the sorted map that {@link TreeMap#putAll} copies without comparing
     * keys: it reads only the comparator, the size and the entries.
     */
    private static final class Ascending<K, V> extends AbstractMap<K, V> implements SortedMap<K, V> {
        private final List<Map.Entry<K, V>> entries;

        Ascending(List<Map.Entry<K, V>> entries) {
            this.entries = entries;
        }

        @Override
        public Set<Map.Entry<K, V>> entrySet() {
            return new AbstractSet<Map.Entry<K, V>>() {
                @Override
                public Iterator<Map.Entry<K, V>> iterator() {
                    return entries.iterator();
                }

                @Override
                public int size() {
                    return entries.size();
                }
            };
        }

        @Override
        public Comparator<? super K> comparator() {
            return null;
        }

        @Override
        public K firstKey() {
            return entries.get(0).getKey();
        }

        @Override
        public K lastKey() {
            return entries.get(entries.size() - 1).getKey();
        }

        @Override
        public SortedMap<K, V> subMap(K fromKey, K toKey) {
            throw new UnsupportedOperationException();
        }

        @Override
        public SortedMap<K, V> headMap(K toKey) {
            throw new UnsupportedOperationException();
        }

        @Override
        public SortedMap<K, V> tailMap(K fromKey) {
            throw new UnsupportedOperationException();
        }
    }
}
