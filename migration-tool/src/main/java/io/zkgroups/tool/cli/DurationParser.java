package io.zkgroups.tool.cli;

import picocli.CommandLine;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations on the command line: ISO-8601 ({@code PT10S}, {@code P1DT2H}), a sum of number+unit parts
 * ({@code 500ms}, {@code 10s}, {@code 5m}, {@code 1h30m}, {@code 2d}) or a plain number of milliseconds
 * ({@code 5000}, what Kafka's tools take for their timeouts). Every duration option of the CLI uses it. Pure.
 */
public final class DurationParser implements CommandLine.ITypeConverter<Duration> {

    private static final Pattern MILLIS = Pattern.compile("\\d+");
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    public static Duration parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty duration");
        }
        String t = text.strip();
        if (MILLIS.matcher(t).matches()) {
            try {
                return Duration.ofMillis(Long.parseLong(t));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "' milliseconds do not fit in 64 bits");
            }
        }
        if (t.toUpperCase(Locale.ROOT).startsWith("P")) {
            try {
                Duration d = Duration.parse(t.toUpperCase(Locale.ROOT));
                if (d.isNegative()) {
                    throw new IllegalArgumentException("negative duration '" + text + "'");
                }
                return d;
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("'" + text + "' is not an ISO-8601 duration (e.g. PT10M)");
            }
        }
        Matcher m = PART.matcher(t.toLowerCase(Locale.ROOT));
        Duration total = Duration.ZERO;
        int at = 0;
        while (at < t.length() && m.find(at) && m.start() == at) {
            long n = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            });
            at = m.end();
        }
        if (at == 0 || at != t.length()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (e.g. 5000 for milliseconds, 500ms, 10s, 5m, 1h30m, 2d, PT10M)");
        }
        return total;
    }

    @Override
    public Duration convert(String value) {
        try {
            return parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
