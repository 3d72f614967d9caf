package io.zkgroups.tool.transfer;

/**
 * The offset file formats of {@code offsets export} / {@code offsets import}.
 * <ul>
 *   <li>{@link #ZK}: 0.8.2.2's {@code ExportZkOffsets}/{@code ImportZkOffsets} line,
 *       {@code /consumers/G/offsets/T/P:offset} (the path is relative to the chroot of the connect string,
 *       as zkclient wrote it);</li>
 *   <li>{@link #CSV}: {@code group,topic,partition,offset}, with that header line
 *       (without it under {@code --no-header}: Kafka's layout for several groups);</li>
 *   <li>{@link #KAFKA_CSV}: {@code topic,partition,offset}, no header: the file
 *       {@code kafka-consumer-groups --reset-offsets --from-file} reads for one group ({@code --no-header} with one
 *       group).</li>
 * </ul>
 * Offsets are always the next offset to consume, in both formats and both stores.
 */
public enum OffsetFileFormat {
    ZK("zk"), CSV("csv"), KAFKA_CSV("csv");

    public static final String CSV_HEADER = "group,topic,partition,offset";

    private final String cliName;

    OffsetFileFormat(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    /** The header line, or null when the format has none. */
    public String header() {
        return this == CSV ? CSV_HEADER : null;
    }

    /** One record as a line (no line terminator). */
    public String format(OffsetRecord r) {
        return switch (this) {
            case ZK -> "/consumers/" + r.group() + "/offsets/" + r.partition().topic() + "/" + r.partition().partition()
                    + ":" + r.offset();
            case CSV -> r.group() + "," + r.partition().topic() + "," + r.partition().partition() + "," + r.offset();
            case KAFKA_CSV -> r.partition().topic() + "," + r.partition().partition() + "," + r.offset();
        };
    }
}
