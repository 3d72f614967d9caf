package io.zkgroups.registry.store;

import io.zkgroups.registry.RegistryException;

/** A write that only the owner of a partition may make was refused: this session does not own it (any more). */
public final class NotOwnedException extends RegistryException {

    private static final long serialVersionUID = 1L;

    public NotOwnedException(String message) {
        super(message);
    }
}
