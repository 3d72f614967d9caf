package io.zkgroups.registry.model;

import java.util.Objects;
import java.util.Optional;

/**
 * A consumer thread id {@code CID-n}: the unit of assignment and the value of an owner znode.
 * Ordered like 0.8.2.2, by {@code String.compareTo} of the text, so {@code c-10 < c-2}.
 */
public record ThreadId(ConsumerId consumer, int thread) implements Comparable<ThreadId> {

    public ThreadId {
        Objects.requireNonNull(consumer, "consumer cannot be null");
        if (thread < 0) {
            throw new IllegalArgumentException("thread index must be >= 0, got " + thread);
        }
    }

    /**
     * Parses an owner znode value. The consumer id is everything before the last {@code '-'}, as 0.8-era
     * tools do. Returns empty for text that is not {@code <consumer id>-<non-negative int>}.
     */
    public static Optional<ThreadId> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        int dash = text.lastIndexOf('-');
        if (dash <= 0 || dash == text.length() - 1) {
            return Optional.empty();
        }
        String digits = text.substring(dash + 1);
        if (!digits.chars().allMatch(c -> c >= '0' && c <= '9') || digits.length() > 9) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ThreadId(new ConsumerId(text.substring(0, dash)), Integer.parseInt(digits)));
        } catch (IllegalArgumentException invalidConsumerId) {
            return Optional.empty();
        }
    }

    @Override
    public int compareTo(ThreadId other) {
        return toString().compareTo(other.toString());
    }

    @Override
    public String toString() {
        return consumer.value() + "-" + thread;
    }
}
