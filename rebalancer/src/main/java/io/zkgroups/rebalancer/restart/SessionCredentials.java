package io.zkgroups.rebalancer.restart;

import java.util.Arrays;

/**
 * What ZooKeeper asks of a client that resumes a session: its id and password. Whoever holds them can take the session
 * over, with its ephemeral znodes, so the password is never logged ({@link #toString()} shows the id only).
 */
public final class SessionCredentials {
    private final long sessionId;
    private final byte[] password;

    public SessionCredentials(long sessionId, byte[] password) {
        if (sessionId == 0) {
            throw new IllegalArgumentException("session id cannot be 0 (no session)");
        }
        if (password == null || password.length == 0) {
            throw new IllegalArgumentException("session password of 0x" + Long.toHexString(sessionId) + " cannot be empty");
        }
        this.password = password.clone();
        this.sessionId = sessionId;
    }

    /** A copy of the password: the caller cannot change this one. */
    public byte[] password() {
        return password.clone();
    }

    public String hexId() {
        return "0x" + Long.toHexString(sessionId);
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof SessionCredentials)) {
            return false;
        }
        SessionCredentials o = (SessionCredentials) other;
        return o.sessionId == sessionId && Arrays.equals(o.password, password);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(sessionId) * 31 + Arrays.hashCode(password);
    }

    @Override
    public String toString() {
        return "session " + hexId();
    }

    public long sessionId() {
        return sessionId;
    }
}
