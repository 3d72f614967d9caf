package io.zkgroups.registry.codec;

/**
 * Znode data that cannot be decoded as what it should be. The only exception a codec throws for bad
 * input: callers (stores, listings) turn it into an "unreadable" entry naming the path.
 */
public final class DecodeException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String what;

    public DecodeException(String what, String reason) {
        super(what + ": " + reason);
        this.what = what;
    }

    public DecodeException(String what, String reason, Throwable cause) {
        super(what + ": " + reason, cause);
        this.what = what;
    }

    /** What was being decoded, e.g. "broker registration". */
    public String what() {
        return what;
    }

    /** The reason without the "what" prefix. */
    public String reason() {
        return getMessage().substring(what.length() + 2);
    }
}
