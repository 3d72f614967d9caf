package io.zkgroups.rebalancer.group;

/** Where a {@link ZkGroupMember} stands. */
public enum MemberState {
    /** Created, not started. */
    LATENT,
    /** Joining or rebalancing: the assignment is being worked out. */
    REBALANCING,
    /** Owns exactly what the assignment of the last snapshot gives it. */
    STABLE,
    /** The session is gone or the lease ran out; ownership is being re-established. */
    SESSION_LOST,
    /** Refused to join (group full, incompatible subscription); see the last error. Terminal. */
    REFUSED,
    /** Closed. Terminal. */
    CLOSED
}
