package io.zkgroups.tool.transfer;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.model.TopicAndPartition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses offset files, pure and total: every line is checked, and every bad line is reported with its number
 * (unlike 0.8.2.2's {@code ImportZkOffsets}, which stops at the first empty line and writes whatever it
 * managed to split). Accepted lines, detected one by one:
 * <ul>
 *   <li>{@code /consumers/G/offsets/T/P:offset} (the {@link OffsetFileFormat#ZK} format);</li>
 *   <li>{@code group,topic,partition,offset} ({@link OffsetFileFormat#CSV}); the header line
 *       {@value OffsetFileFormat#CSV_HEADER} is skipped;</li>
 *   <li>only in {@link #parseForGroup}: {@code topic,partition,offset} (the CSV of
 *       {@code kafka-consumer-groups --reset-offsets --from-file}).</li>
 * </ul>
 * Blank lines and lines starting with {@code #} are ignored. An offset must be a decimal number {@code >= 0}.
 * The same partition twice with the same offset is accepted once; with different offsets it is an error.
 */
public final class OffsetFileParser {

    private static final Pattern ZK_LINE = Pattern.compile("/consumers/([^/]*)/offsets/([^/]*)/([^/:]*):(.*)");

    private OffsetFileParser() {
    }

    /** Parses a whole import file: ZK lines and 4-column CSV. */
    public static ParsedOffsetFile parse(List<String> lines) {
        return parse(lines, null);
    }

    /**
     * Parses a reset file for {@code group}: ZK lines and 4-column CSV must name {@code group}; 3-column
     * {@code topic,partition,offset} lines are taken as {@code group}'s.
     */
    public static ParsedOffsetFile parseForGroup(List<String> lines, String group) {
        ZkNames.requireValid("group id", group);
        return parse(lines, group);
    }

    private static ParsedOffsetFile parse(List<String> lines, String onlyGroup) {
        List<OffsetRecord> records = new ArrayList<>();
        List<Integer> numbers = new ArrayList<>();
        List<LineError> errors = new ArrayList<>();
        Map<String, Map<TopicAndPartition, int[]>> seen = new HashMap<>(); // group -> tp -> {line, index}
        for (int i = 0; i < lines.size(); i++) {
            int number = i + 1;
            String line = stripBom(lines.get(i), i).strip();
            if (line.isEmpty() || line.startsWith("#") || line.equalsIgnoreCase(OffsetFileFormat.CSV_HEADER)
                    || (onlyGroup != null && line.equalsIgnoreCase("topic,partition,offset"))) {
                continue;
            }
            Object parsed = parseLine(line, onlyGroup);
            if (parsed instanceof String reason) {
                errors.add(new LineError(number, reason + ": '" + shorten(line) + "'"));
                continue;
            }
            OffsetRecord record = (OffsetRecord) parsed;
            if (onlyGroup != null && !record.group().equals(onlyGroup)) {
                errors.add(new LineError(number, "offset of group '" + record.group() + "', but the reset is for group '"
                        + onlyGroup + "'"));
                continue;
            }
            Map<TopicAndPartition, int[]> groupSeen = seen.computeIfAbsent(record.group(), g -> new HashMap<>());
            int[] earlier = groupSeen.get(record.partition());
            if (earlier != null) {
                OffsetRecord first = records.get(earlier[1]);
                if (first.offset() != record.offset()) {
                    errors.add(new LineError(number, "group " + record.group() + " " + record.partition().topic() + ":"
                            + record.partition().partition() + " appears again with offset " + record.offset()
                            + " (line " + earlier[0] + " says " + first.offset() + ")"));
                }
                continue;
            }
            groupSeen.put(record.partition(), new int[]{number, records.size()});
            records.add(record);
            numbers.add(number);
        }
        return new ParsedOffsetFile(records, numbers, errors);
    }

    /** An {@link OffsetRecord}, or a String saying what is wrong. */
    private static Object parseLine(String line, String onlyGroup) {
        if (line.startsWith("/")) {
            Matcher m = ZK_LINE.matcher(line);
            if (!m.matches()) {
                return "not of the form /consumers/<group>/offsets/<topic>/<partition>:<offset>";
            }
            return record(m.group(1), m.group(2), m.group(3), m.group(4));
        }
        String[] cells = line.split(",", -1);
        if (cells.length == 4) {
            return record(cells[0].strip(), cells[1].strip(), cells[2].strip(), cells[3].strip());
        }
        if (cells.length == 3 && onlyGroup != null) {
            return record(onlyGroup, cells[0].strip(), cells[1].strip(), cells[2].strip());
        }
        return onlyGroup == null
                ? "expected /consumers/<group>/offsets/<topic>/<partition>:<offset> or group,topic,partition,offset"
                        + (cells.length == 3 ? " (topic,partition,offset lines need --group)" : "")
                : "expected topic,partition,offset or group,topic,partition,offset or /consumers/<group>/offsets/<topic>/<partition>:<offset>";
    }

    private static Object record(String group, String topic, String partitionText, String offsetText) {
        if (!ZkNames.isValid(group)) {
            return "invalid group id '" + group + "'";
        }
        if (!ZkNames.isValid(topic)) {
            return "invalid topic '" + topic + "'";
        }
        OptionalInt partition = ZkLayout.parsePartition(partitionText);
        if (partition.isEmpty()) {
            return "partition '" + partitionText + "' is not a number >= 0";
        }
        String offset = offsetText.strip();
        if (offset.startsWith("-") && offset.length() > 1 && offset.substring(1).chars().allMatch(Character::isDigit)) {
            return "offset " + offset + " is negative (an offset is the next offset to consume, >= 0)";
        }
        if (offset.isEmpty() || !offset.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return "offset '" + offset + "' is not a decimal number";
        }
        try {
            return new OffsetRecord(group, new TopicAndPartition(topic, partition.getAsInt()), Long.parseLong(offset));
        } catch (NumberFormatException e) {
            return "offset '" + offset + "' does not fit in 64 bits";
        }
    }

    private static String stripBom(String line, int index) {
        return index == 0 && line.startsWith("\uFEFF") ? line.substring(1) : line;
    }

    private static String shorten(String text) {
        return text.length() > 120 ? text.substring(0, 117) + "..." : text;
    }
}
