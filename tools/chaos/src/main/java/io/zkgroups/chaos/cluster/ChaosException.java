package io.zkgroups.chaos.cluster;

/** A part of the run did not do what the run needs (a server did not start, a member did not come back). */
public final class ChaosException extends RuntimeException {

    public ChaosException(String message) {
        super(message);
    }

    public ChaosException(String message, Throwable cause) {
        super(message, cause);
    }
}
