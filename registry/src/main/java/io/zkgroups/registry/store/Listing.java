package io.zkgroups.registry.store;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.zkgroups.registry.Immutable;

import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The result of listing znodes: what could be read, and what could not (with path and reason).
 * Malformed data never escapes a listing as an exception.
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
public final class Listing<T> {
    private final List<T> entries;
    private final List<Unreadable> unreadable;

    public Listing(List<T> entries, List<Unreadable> unreadable) {
        entries = Immutable.list(entries);
        unreadable = Immutable.list(unreadable);
        this.entries = entries;
        this.unreadable = unreadable;
    }

    public static <T> Listing<T> empty() {
        return new Listing<>(Collections.emptyList(), Collections.emptyList());
    }

    public boolean isClean() {
        return unreadable.isEmpty();
    }

    public List<T> entries() {
        return entries;
    }

    public List<Unreadable> unreadable() {
        return unreadable;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof Listing)) {
            return false;
        }
        Listing<?> that = (Listing<?>) o;
        return Objects.equals(entries, that.entries)
                && Objects.equals(unreadable, that.unreadable);
    }

    @Override
    public int hashCode() {
        int h = 0;
        h = 31 * h + Objects.hashCode(entries);
        h = 31 * h + Objects.hashCode(unreadable);
        return h;
    }

    @Override
    public String toString() {
        return "Listing[entries=" + entries + ", unreadable=" + unreadable + "]";
    }
}
