package io.zkgroups.tool.consume;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.record.TimestampType;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * How {@code consume} prints a record: the layout of Kafka's console consumer ({@code DefaultMessageFormatter})
 * driven by the same {@code --property} names. Fields in Kafka's order, each followed by {@code key.separator}:
 * {@code CreateTime:1700000000000}, {@code Partition:0}, {@code Offset:42}, the key, then the value and
 * {@code line.separator}. A null key or value prints as {@code null}. Pure.
 */
public record RecordFormat(boolean printTimestamp, boolean printPartition, boolean printOffset, boolean printKey,
                           boolean printValue, String keySeparator, String lineSeparator) {

    /** The property names understood, as Kafka spells them. */
    public static final Set<String> PROPERTIES = Set.of("print.timestamp", "print.partition", "print.offset",
            "print.key", "print.value", "key.separator", "line.separator", "key.deserializer", "value.deserializer");

    /** Only the value, one per line: Kafka's default. */
    public static final RecordFormat VALUE_ONLY = new RecordFormat(false, false, false, false, true, "\t", "\n");

    /**
     * Reads {@code --property} values (deserializer names are taken elsewhere); {@code printKey} is the older
     * {@code --print-key} flag.
     *
     * @throws IllegalArgumentException naming the property that is unknown or not {@code true}/{@code false}
     */
    public static RecordFormat of(Map<String, String> properties, boolean printKey) {
        Set<String> unknown = new TreeSet<>(properties.keySet());
        unknown.removeAll(PROPERTIES);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("--property " + String.join(", ", unknown) + ": unknown (expected "
                    + String.join(", ", new TreeSet<>(PROPERTIES)) + ")");
        }
        return new RecordFormat(flag(properties, "print.timestamp", false), flag(properties, "print.partition", false),
                flag(properties, "print.offset", false), printKey || flag(properties, "print.key", false),
                flag(properties, "print.value", true), unescape(properties.getOrDefault("key.separator", "\t")),
                unescape(properties.getOrDefault("line.separator", "\n")));
    }

    /** The line of {@code record}, whose key and value are already turned into text (null: absent). */
    public String format(ConsumerRecord<?, ?> record, String key, String value) {
        StringBuilder line = new StringBuilder();
        if (printTimestamp) {
            field(line, record.timestampType() == TimestampType.NO_TIMESTAMP_TYPE ? "NO_TIMESTAMP"
                    : record.timestampType() + ":" + record.timestamp());
        }
        if (printPartition) {
            field(line, "Partition:" + record.partition());
        }
        if (printOffset) {
            field(line, "Offset:" + record.offset());
        }
        if (printKey) {
            field(line, String.valueOf(key));
        }
        if (printValue) {
            field(line, String.valueOf(value));
        }
        return line.append(lineSeparator).toString();
    }

    private void field(StringBuilder line, String text) {
        if (!line.isEmpty()) {
            line.append(keySeparator);
        }
        line.append(text);
    }

    private static boolean flag(Map<String, String> properties, String name, boolean otherwise) {
        String value = properties.get(name);
        if (value == null) {
            return otherwise;
        }
        return switch (value.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("--property " + name + "=" + value + ": expected true or false");
        };
    }

    /** {@code \t}, {@code \n} and {@code \r} as a shell passes them (backslash + letter), like Kafka's tools. */
    private static String unescape(String text) {
        return text.replace("\\t", "\t").replace("\\n", "\n").replace("\\r", "\r");
    }
}
