package io.zkgroups.tool.cli;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;

/**
 * {@code --to-datetime} values: ISO-8601 with an explicit zone or offset — {@code 2024-05-01T10:00:00Z},
 * {@code 2024-05-01T12:00:00+02:00}, {@code 2024-05-01T12:00:00+02:00[Europe/Paris]}. A value without a zone is
 * refused: the machine's zone is never guessed. Pure.
 */
public final class DateTimes {

    private DateTimes() {
    }

    public static Instant parse(String text) {
        String t = text.strip();
        try {
            return OffsetDateTime.parse(t).toInstant();
        } catch (DateTimeParseException notOffset) {
            try {
                return ZonedDateTime.parse(t).toInstant();
            } catch (DateTimeParseException notZoned) {
                try {
                    LocalDateTime.parse(t);
                    throw new IllegalArgumentException("--to-datetime '" + text + "' has no zone: add one, e.g. "
                            + t + "Z or " + t + "+02:00 or " + t + "+02:00[Europe/Paris]");
                } catch (DateTimeParseException notLocal) {
                    throw new IllegalArgumentException("--to-datetime '" + text + "' is not an ISO-8601 date-time with zone, "
                            + "e.g. 2024-05-01T10:00:00Z or 2024-05-01T12:00:00+02:00");
                }
            }
        }
    }
}
