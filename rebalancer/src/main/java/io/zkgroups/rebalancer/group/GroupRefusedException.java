package io.zkgroups.rebalancer.group;

/** A member was refused: the group is full, or its subscription cannot share the group's assignment. */
public final class GroupRefusedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public GroupRefusedException(String message) {
        super(message);
    }

    public GroupRefusedException(String message, Throwable cause) {
        super(message, cause);
    }
}
