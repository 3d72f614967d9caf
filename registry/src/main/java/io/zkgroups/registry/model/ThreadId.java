package io.zkgroups.registry.model;

import com.fasterxml.jackson.annotation.JsonAutoDetect;

import java.util.Objects;
import java.util.Optional;

/**
 * A consumer thread id {@code CID-n}: the unit of assignment and the value of an owner znode.
 * Ordered like 0.8.2.2, by {@code String.compareTo} of the text, so {@code c-10 < c-2}.
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
public final class ThreadId implements Comparable<ThreadId> {
    private final ConsumerId consumer;
    private final int thread;

    public ThreadId(ConsumerId consumer, int thread) {
        Objects.requireNonNull(consumer, "consumer cannot be null");
        if (thread < 0) {
            throw new IllegalArgumentException("thread index must be >= 0, got " + thread);
        }
        this.consumer = consumer;
        this.thread = thread;
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
        // String.compareTo of the two texts, without building them: this runs in every sort an assignor makes.
        // One pass over the ids, which share the group's prefix: compareTo gives their length difference only when
        // one is a prefix of the other (then the texts' tails decide) or, by chance, as the first differing chars'.
        String id = consumer.value();
        String otherId = other.consumer.value();
        int byId = id.compareTo(otherId);
        int lengths = id.length() - otherId.length();
        if (byId != lengths || lengths != 0 && !(lengths > 0 ? id.startsWith(otherId) : otherId.startsWith(id))) {
            return byId; // they differ within the ids: the rest of the texts cannot matter
        }
        int length = textLength();
        int otherLength = other.textLength();
        for (int i = Math.min(id.length(), otherId.length()), n = Math.min(length, otherLength); i < n; i++) {
            char c = charAt(i);
            char d = other.charAt(i);
            if (c != d) {
                return c - d;
            }
        }
        return length - otherLength;
    }

    /** The length of {@link #toString()}. */
    private int textLength() {
        int digits = 1;
        for (int rest = thread / 10; rest > 0; rest /= 10) {
            digits++;
        }
        return consumer.value().length() + 1 + digits;
    }

    /** The character {@code i} of {@link #toString()}. */
    private char charAt(int i) {
        String id = consumer.value();
        if (i < id.length()) {
            return id.charAt(i);
        }
        if (i == id.length()) {
            return '-';
        }
        int rest = thread;
        for (int fromEnd = textLength() - 1 - i; fromEnd > 0; fromEnd--) {
            rest /= 10;
        }
        return (char) ('0' + rest % 10);
    }

    @Override
    public boolean equals(Object other) {
        // Written out, like hashCode: the generated ones go through method handles, slow before the JIT has run,
        // and these run for every row of every assignment.
        if (this == other) {
            return true;
        }
        if (!(other instanceof ThreadId)) {
            return false;
        }
        ThreadId id = (ThreadId) other;
        return thread == id.thread && consumer.equals(id.consumer);
    }

    @Override
    public int hashCode() {
        return 31 * consumer.hashCode() + thread;
    }

    @Override
    public String toString() {
        return consumer.value() + "-" + thread;
    }

    public ConsumerId consumer() {
        return consumer;
    }

    public int thread() {
        return thread;
    }
}
