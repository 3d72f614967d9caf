package io.zkgroups.rebalancer.assign;

import java.util.Map;
import java.util.Objects;

/**
 * The entry {@code "sticky":"1"} of a registration's zkgroups capability key: "I compute {@link RendezvousAssignor}
 * version 1 when every member of the group does". The version names the exact weight function; a member that
 * computes different weights must advertise another version, so that a group mixing both falls back to the
 * 0.8.2.2 assignment instead of fighting over partitions.
 */
public final class StickyCapability {

    /** The key inside the capability object. */
    public static final String KEY = "sticky";

    /** The version of {@link RendezvousAssignor} this build computes. */
    public static final String VERSION = "1";

    private StickyCapability() {
    }

    /** True if a registration with these capabilities computes the same sticky assignment as this build. */
    public static boolean advertisedBy(Map<String, String> capabilities) {
        Objects.requireNonNull(capabilities, "capabilities cannot be null");
        return VERSION.equals(capabilities.get(KEY));
    }
}
