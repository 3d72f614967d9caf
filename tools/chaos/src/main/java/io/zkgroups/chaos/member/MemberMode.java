package io.zkgroups.chaos.member;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How a chaos member behaves: correctly, or broken on purpose to show that the monitor notices. */
public enum MemberMode {
    /** The application as it should be written. */
    CORRECT,
    /** Keeps handing out partitions after they were revoked or lost (from a fetcher of its own). */
    IGNORE_LOSS,
    /** Every third commit writes back a partition's first position of the tenure: the offset moves backwards. */
    STALE_COMMIT,
    /**
     * Never commits on the interval, only when partitions are revoked and when it leaves, and runs without
     * {@code zkgroups.max.uncommitted.records} (0): what a kill or a lost session leaves uncommitted outgrows any bound
     * the run's configuration sets.
     */
    LAZY_COMMIT,
    /**
     * Stops polling once, {@link #STALL_AFTER_MS} after it started, for {@link #STALL_HOLD_MS}: it keeps its partitions
     * (its session lives on) and hands nothing out, longer than the stall bound of any session timeout up to 20 s.
     */
    STALL;

    /**
     * When {@link #STALL} stops polling, after its START: early in the run, before its first fault ends (if the others
     * join meanwhile, its revocation times out and it keeps its share, still without polling).
     */
    public static final long STALL_AFTER_MS = 5_000;
    /** How long {@link #STALL} stops polling. */
    public static final long STALL_HOLD_MS = 30_000;

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static MemberMode parse(String label) {
        for (MemberMode m : values()) {
            if (m.label().equals(label)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown member mode '" + label + "' (one of "
                + Arrays.stream(values()).map(MemberMode::label).collect(Collectors.joining(", ")) + ")");
    }
}
