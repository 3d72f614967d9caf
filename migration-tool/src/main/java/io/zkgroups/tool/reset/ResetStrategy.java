package io.zkgroups.tool.reset;

import io.zkgroups.registry.model.TopicAndPartition;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Where {@code offsets reset} moves each partition. */
public sealed interface ResetStrategy {

    /** A short description for the plan header. */
    String describe();

    /** The log start offset (oldest message still on the broker). */
    record ToEarliest() implements ResetStrategy {
        public String describe() {
            return "to-earliest";
        }
    }

    /** The log end offset (only new messages will be consumed). */
    record ToLatest() implements ResetStrategy {
        public String describe() {
            return "to-latest";
        }
    }

    /** The current committed offset, rewritten (e.g. to make both stores agree). */
    record ToCurrent() implements ResetStrategy {
        public String describe() {
            return "to-current";
        }
    }

    /** A fixed offset, clamped into the log's range. */
    record ToOffset(long offset) implements ResetStrategy {
        public String describe() {
            return "to-offset " + offset;
        }
    }

    /** The current offset plus {@code delta} (negative: back), clamped into the log's range. */
    record ShiftBy(long delta) implements ResetStrategy {
        public String describe() {
            return "shift-by " + delta;
        }
    }

    /**
     * The first offset whose timestamp is at or after {@code instant} (the log end when there is none).
     * {@code --to-datetime} and {@code --by-duration} both become this, resolved before planning.
     */
    record ToTimestamp(Instant instant, String given) implements ResetStrategy {
        public ToTimestamp {
            Objects.requireNonNull(instant, "instant");
            Objects.requireNonNull(given, "given");
        }

        public String describe() {
            return given + " (" + instant + ")";
        }
    }

    /** Offsets read from a file; only the partitions in the file are reset. */
    record FromFile(String file, Map<TopicAndPartition, Long> offsets) implements ResetStrategy {
        public FromFile {
            Objects.requireNonNull(file, "file");
            offsets = java.util.Collections.unmodifiableMap(new TreeMap<>(offsets));
        }

        public String describe() {
            return "from-file " + file;
        }
    }
}
