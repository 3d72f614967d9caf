package io.zkgroups.registry.store;

import java.util.List;

/**
 * The result of listing znodes: what could be read, and what could not (with path and reason).
 * Malformed data never escapes a listing as an exception.
 */
public record Listing<T>(List<T> entries, List<Unreadable> unreadable) {

    public Listing {
        entries = List.copyOf(entries);
        unreadable = List.copyOf(unreadable);
    }

    public static <T> Listing<T> empty() {
        return new Listing<>(List.of(), List.of());
    }

    public boolean isClean() {
        return unreadable.isEmpty();
    }
}
