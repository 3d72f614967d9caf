package io.zkgroups.rebalancer.restart;

/** The steps of a session hand-over, in order: the first three in the stopping process, the others in its successor. */
public enum HandoverStep {
    /** Every grant withdrawn: no record is handed out and no offset committed by this process any more; commits done. */
    FENCED,
    /** The ZooKeeper connection is dropped, the session kept: this process will never use it again. */
    DISCONNECTED,
    /** The ticket is in the hand-over file, for the successor to take. */
    FILE_WRITTEN,
    /** A successor started before its predecessor stopped found no ticket and waits for one. */
    AWAITING_TICKET,
    /** The successor has read and deleted the ticket. */
    FILE_TAKEN,
    /** The successor is connected in the handed-over session (it has not looked at its znodes yet). */
    SESSION_RESUMED
}
