package io.zkgroups.registry.store;

/** A znode a listing could not read or decode: the listing goes on, the caller can skip it and alarm. */
public record Unreadable(String path, String reason) {

    @Override
    public String toString() {
        return path + ": " + reason;
    }
}
