package io.zkgroups.tool.lag;

import java.time.Duration;
import java.time.Instant;

/**
 * A partition's lag in seconds: the age, at the sample, of the record at the committed offset (the next the group will
 * consume). Zero when there is nothing to consume; otherwise it keeps growing while the offset does not move, whether
 * or not anybody commits. Pure.
 *
 * @param seconds null when unknown (no offset, no log end, or no time known for the record)
 * @param source  {@code caught-up}, or how the record's time is known ({@link RecordTimes.Source#label()}); null when unknown
 */
public record TimeLag(Double seconds, String source) {

    public static final String CAUGHT_UP = "caught-up";

    private static final TimeLag UNKNOWN = new TimeLag(null, null);

    /** The lag in seconds at {@code at} of a group at {@code offset} of a log ending at {@code logEnd}. */
    public static TimeLag of(Long offset, Long logEnd, RecordTimes.Written written, Instant at) {
        if (offset == null || logEnd == null) {
            return UNKNOWN;
        }
        if (offset >= logEnd) {
            return new TimeLag(0.0, CAUGHT_UP);
        }
        if (written == null) {
            return UNKNOWN;
        }
        return new TimeLag(Math.max(0.0, secondsBetween(written.at(), at)), written.source().label());
    }

    /** Seconds from {@code from} to {@code to}, in milliseconds' precision; null when {@code from} is. */
    public static Double secondsBetween(Instant from, Instant to) {
        return from == null ? null : Duration.between(from, to).toMillis() / 1000.0;
    }
}
