package io.zkgroups.rebalancer.assign;

/**
 * An assignor refuses a group rather than compute an assignment that real 0.8.2.2 members would not compute.
 * The group cannot be served by this strategy as it stands; retrying with the same snapshot gives the same
 * answer. The message says what is wrong and what to change.
 * <p>
 * Its only subclasses are {@link IncompatibleSubscriptionException} and {@link AmbiguousAssignmentException};
 * the package-private constructor keeps it so.
 */
public abstract class AssignmentRefusedException extends IllegalArgumentException {

    AssignmentRefusedException(String message) {
        super(message);
    }
}
