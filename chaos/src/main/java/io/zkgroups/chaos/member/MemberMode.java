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
    STALE_COMMIT;

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
