package io.zkgroups.tool;

/**
 * Every exit code of {@code zkgroups}; docs/cli.md's table is written from this list (GeneratedDocsTest). Scripts
 * may rely on these numbers; never renumber them.
 */
public enum ExitCode {
    OK(0, "success (for health: the group is healthy; for verify: no divergence)"),
    INTERNAL(1, "unexpected internal error (a bug: rerun with --verbose for the stack trace)"),
    USAGE(2, "bad command line: unknown option, missing or malformed value (e.g. --to-datetime without a zone)"),
    NOT_FOUND(3, "unknown group, topic or partition"),
    GROUP_ACTIVE(4, "refused: the group has live members (they are named on stderr)"),
    UNREACHABLE(5, "ZooKeeper or Kafka unreachable, timed out, or refused the credentials"),
    BAD_INPUT_FILE(6, "malformed input file (every bad line is reported with its number); nothing written"),
    UNREADABLE_ZNODE(7, "znodes with data that cannot be decoded (each path is reported)"),
    DIVERGENCE(8, "migrate verify: the stores differ on at least one partition"),
    REWIND_SKIPPED(9, "migrate execute/rollback: some partitions were left alone because copying would "
            + "move their offset backwards (rerun with --allow-rewind on an inactive group to force)"),
    KAFKA_REFUSED(10, "Kafka refused the offsets (e.g. a Kafka-protocol consumer uses the same group id, or an ACL)"),
    KAFKA_PARTIAL(11, "groups describe, health, lag: Kafka did not answer (or refused); the ZooKeeper half was "
            + "printed (and, for health, judged healthy) with a warning saying why"),
    UNDECODABLE_RECORD(12, "consume: a record could not be deserialized with the chosen deserializer (it is named; "
            + "nothing after it is committed); --skip-message-on-error skips such records instead"),
    CUTOVER_REFUSED(13, "migrate coordination: a guard rail failed (a member that cannot cross, offsets not in Kafka, "
            + "group not stable, Kafka's group in use by others); each failed check is named; nothing written"),
    KAFKA_TOO_OLD(14, "the Kafka broker is too old for a request the command needs (the Admin API of kafka-clients "
            + "3.9 needs Kafka 0.11.0 or later: offsets reset, lag, the log offsets of groups describe and health)"),
    HEALTH_MEMBERS(20, "health: no registered member, or fewer/more than --expect-members"),
    HEALTH_UNOWNED(21, "health: a partition of a subscribed topic has no owner"),
    HEALTH_FOREIGN_OWNER(22, "health: a partition is owned by a thread that is not a registered member's"),
    HEALTH_ASSIGNMENT(23, "health: owners differ from what the assignor computes for the registered members "
            + "(rebalance pending)"),
    HEALTH_STORES(24, "health: dual-commit phase and ZooKeeper and Kafka offsets differ by more than "
            + "--store-tolerance"),
    HEALTH_ASSIGNOR_REFUSED(25, "health: the assignor cannot assign the group (round-robin with unequal subscriptions, like "
            + "0.8.2.2)"),
    HEALTH_UNREADABLE(26, "health: a znode of the group cannot be read (a registration, an owner, the offset of a partition "
            + "the group owns or must own, or a subscribed topic); each path is reported with the reason"),
    HEALTH_STALLED(27, "health --max-stall: a partition with backlog has not advanced for the given time"),
    HEALTH_LAGGING(28, "health --max-lag-seconds: the record at some partition's committed offset is older than the "
            + "given time"),
    HEALTH_MEMBER_ALARMS(29, "health: a zkgroups member reports partitions it cannot fetch (Kafka does not answer it) "
            + "or resume (an offset it cannot read); each is named with the member and the cause (a rewind the member "
            + "wrote back is a notice, not this)");

    private final int code;
    private final String meaning;

    ExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    public int code() {
        return code;
    }

    public String meaning() {
        return meaning;
    }

    /**
     * Whether a failure on the Kafka side with this code leaves the ZooKeeper half of a report worth printing, with a
     * warning (describe, health, lag: exit 11): Kafka did not answer, refused, or is too old.
     */
    public boolean leavesZooKeeperHalf() {
        return this == UNREACHABLE || this == KAFKA_REFUSED || this == KAFKA_TOO_OLD;
    }
}
