package io.zkgroups.rebalancer.offsets;

/** Offsets could not be read or committed; the message says which store, which group and why. */
public final class OffsetStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public OffsetStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
