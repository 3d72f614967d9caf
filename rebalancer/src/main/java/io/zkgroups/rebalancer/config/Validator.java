package io.zkgroups.rebalancer.config;

import io.zkgroups.registry.ZkNames;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** Checks one value of a key; the reason it gives ends up in "invalid value 'V' for property K: reason". */
@FunctionalInterface
public interface Validator {

    /**
     * Null if {@code value} is good, else why not ("must be a positive integer").
     *
     * @throws IllegalArgumentException naming key and value itself, for checks with their own messages (names)
     */
    String problem(String key, String value);

    /** Anything goes. */
    static Validator any() {
        return (key, value) -> null;
    }

    /** An int. */
    static Validator anyInt() {
        return (key, value) -> parsesAsInt(value) ? null : "must be an integer";
    }

    /** An int greater than 0. */
    static Validator positiveInt() {
        return (key, value) -> !parsesAsInt(value) ? "must be an integer"
                : Integer.parseInt(value) <= 0 ? "must be a positive integer" : null;
    }

    /** An int of 0 or more. */
    static Validator nonNegativeInt() {
        return (key, value) -> !parsesAsInt(value) ? "must be an integer"
                : Integer.parseInt(value) < 0 ? "must not be negative" : null;
    }

    /** An int of {@code min} or more. */
    static Validator intAtLeast(int min) {
        return (key, value) -> !parsesAsInt(value) ? "must be an integer"
                : Integer.parseInt(value) < min ? "must be at least " + min : null;
    }

    /** {@code true} or {@code false}, ignoring case. */
    static Validator bool() {
        return (key, value) -> value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false") ? null
                : "must be true or false";
    }

    /** One of {@code allowed}, ignoring case. */
    static Validator oneOfIgnoringCase(String why, String... allowed) {
        List<String> values = Arrays.asList(allowed);
        return (key, value) -> values.contains(value.toLowerCase(Locale.ROOT)) ? null : why;
    }

    /** A legal ZooKeeper node name ({@link ZkNames}). */
    static Validator zkName() {
        return (key, value) -> {
            ZkNames.requireValid(key, value);
            return null;
        };
    }

    /** Whatever {@code check} says, asked at check time (for registries that change, such as the assignors). */
    static Validator dynamic(Function<String, String> check) {
        return (key, value) -> check.apply(value);
    }

    static boolean parsesAsInt(String value) {
        try {
            Integer.parseInt(value);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
