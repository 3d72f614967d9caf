package io.zkgroups.it.support;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text exposition format 0.0.4 (the Java client has a writer, no parser): every line
 * is a {@code # HELP}, a {@code # TYPE} or a sample; names, label names and escapes are checked; a family's
 * {@code TYPE} comes at most once and before its samples; a family's samples are contiguous; no series appears twice;
 * values are floats. Any violation fails with the line number.
 */
public final class PrometheusText {

    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"");
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})? (\\S+)( -?\\d+)?");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");

    private PrometheusText() {
    }

    /** The samples of {@code text}, by series ({@code name{label="value",...}} with the labels sorted). */
    public static Map<String, Double> parse(String text) {
        if (!text.isEmpty() && !text.endsWith("\n")) {
            throw new AssertionError("the exposition must end with a newline");
        }
        Map<String, Double> samples = new LinkedHashMap<>();
        Map<String, String> types = new LinkedHashMap<>();
        Set<String> closedFamilies = new HashSet<>();
        String currentFamily = null;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length - 1; i++) {
            String line = lines[i];
            int n = i + 1;
            if (line.startsWith("# HELP ") || line.startsWith("# TYPE ")) {
                String[] parts = line.split(" ", 4);
                if (parts.length < 4 || !NAME.matcher(parts[2]).matches()) {
                    throw new AssertionError("line " + n + ": malformed comment: " + line);
                }
                String family = parts[2];
                if (line.startsWith("# TYPE ")) {
                    if (!TYPES.contains(parts[3])) {
                        throw new AssertionError("line " + n + ": unknown type " + parts[3]);
                    }
                    if (types.put(family, parts[3]) != null) {
                        throw new AssertionError("line " + n + ": second TYPE for " + family);
                    }
                    if (samples.keySet().stream().anyMatch(s -> familyOf(s, types).equals(family))) {
                        throw new AssertionError("line " + n + ": TYPE of " + family + " after its samples");
                    }
                }
                continue;
            }
            if (line.startsWith("#") || line.isEmpty()) {
                throw new AssertionError("line " + n + ": not a HELP, TYPE or sample line: '" + line + "'");
            }
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) {
                throw new AssertionError("line " + n + ": malformed sample: " + line);
            }
            Map<String, String> labels = new TreeMap<>();
            if (m.group(3) != null && !m.group(3).isEmpty()) {
                String rest = m.group(3);
                Matcher l = LABEL.matcher(rest);
                int at = 0;
                while (at < rest.length()) {
                    if (!l.find(at) || l.start() != at) {
                        throw new AssertionError("line " + n + ": malformed labels: " + rest);
                    }
                    if (labels.put(l.group(1), l.group(2)) != null) {
                        throw new AssertionError("line " + n + ": label " + l.group(1) + " twice");
                    }
                    at = l.end();
                    if (at < rest.length()) {
                        if (rest.charAt(at) != ',') {
                            throw new AssertionError("line " + n + ": expected ',' in labels: " + rest);
                        }
                        at++;
                    }
                }
            }
            double value = value(m.group(4), n);
            String series = m.group(1) + labels;
            String family = familyOf(series, types);
            if (!family.equals(currentFamily)) {
                if (closedFamilies.contains(family)) {
                    throw new AssertionError("line " + n + ": samples of " + family + " are not contiguous");
                }
                if (currentFamily != null) {
                    closedFamilies.add(currentFamily);
                }
                currentFamily = family;
            }
            if (samples.put(series, value) != null) {
                throw new AssertionError("line " + n + ": series " + series + " twice");
            }
        }
        return samples;
    }

    /** The family a series belongs to: its name, less a histogram/summary/counter suffix of a declared family. */
    private static String familyOf(String series, Map<String, String> types) {
        String name = series.contains("{") ? series.substring(0, series.indexOf('{')) : series;
        for (String suffix : new String[]{"_total", "_created", "_bucket", "_sum", "_count"}) {
            if (name.endsWith(suffix) && types.containsKey(name.substring(0, name.length() - suffix.length()))) {
                return name.substring(0, name.length() - suffix.length());
            }
        }
        return name;
    }

    private static double value(String text, int line) {
        switch (text) {
            case "NaN" -> {
                return Double.NaN;
            }
            case "+Inf" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-Inf" -> {
                return Double.NEGATIVE_INFINITY;
            }
            default -> {
                try {
                    return Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw new AssertionError("line " + line + ": '" + text + "' is not a value");
                }
            }
        }
    }
}
