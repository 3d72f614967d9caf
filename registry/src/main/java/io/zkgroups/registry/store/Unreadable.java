package io.zkgroups.registry.store;

import com.fasterxml.jackson.annotation.JsonAutoDetect;

import java.util.Objects;

/** A znode a listing could not read or decode: the listing goes on, the caller can skip it and alarm. */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
public final class Unreadable {
    private final String path;
    private final String reason;

    public Unreadable(String path, String reason) {
        this.path = path;
        this.reason = reason;
    }

    @Override
    public String toString() {
        return path + ": " + reason;
    }

    public String path() {
        return path;
    }

    public String reason() {
        return reason;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof Unreadable)) {
            return false;
        }
        Unreadable that = (Unreadable) o;
        return Objects.equals(path, that.path)
                && Objects.equals(reason, that.reason);
    }

    @Override
    public int hashCode() {
        int h = 0;
        h = 31 * h + Objects.hashCode(path);
        h = 31 * h + Objects.hashCode(reason);
        return h;
    }
}
