package io.zkgroups.tool.cli;

import io.zkgroups.tool.lag.RecordTimes;

import java.util.Locale;

/** Durations in seconds as the tables print them: {@code 4.2s}, {@code 3m12s}, {@code 2h05m}; {@code -} when unknown. */
final class Seconds {

    private Seconds() {
    }

    static String format(Double seconds) {
        if (seconds == null) {
            return "-";
        }
        if (seconds < 60) {
            return String.format(Locale.ROOT, "%.1fs", seconds);
        }
        long s = (long) Math.floor(seconds);
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }

    /** A lag in seconds marked by how it is known: {@code ~} interpolated, {@code >=} a lower bound. */
    static String lag(Double seconds, String source) {
        if (seconds == null) {
            return "-";
        }
        if (RecordTimes.Source.INTERPOLATED.label().equals(source)) {
            return "~" + format(seconds);
        }
        if (RecordTimes.Source.AT_LEAST.label().equals(source)) {
            return ">=" + format(seconds);
        }
        return format(seconds);
    }

    static String ago(Double seconds) {
        return seconds == null ? "-" : format(seconds) + " ago";
    }
}
