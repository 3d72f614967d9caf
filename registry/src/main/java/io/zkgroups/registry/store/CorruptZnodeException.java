package io.zkgroups.registry.store;

import io.zkgroups.registry.RegistryException;

/** A single read found data it cannot decode; the message names the path and the problem. */
public final class CorruptZnodeException extends RegistryException {

    private static final long serialVersionUID = 1L;
    private final String path;

    public CorruptZnodeException(String path, String reason, Throwable cause) {
        super("unreadable znode " + path + ": " + reason, cause);
        this.path = path;
    }

    public String path() {
        return path;
    }
}
