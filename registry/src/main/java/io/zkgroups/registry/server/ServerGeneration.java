package io.zkgroups.registry.server;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a ZooKeeper server implements, by release line. An older server answers a request it does not know with
 * UNIMPLEMENTED and then closes the connection (its {@code UnimplementedRequestProcessor}), so a client must know
 * before it sends:
 * <ul>
 *   <li>3.4: {@code multi} but no {@code create2} (the create Curator 5 sends outside a transaction), no
 *   {@code checkWatches}/{@code removeWatches}, no containers, no {@code /zookeeper/config};</li>
 *   <li>3.5: adds those; no persistent watches ({@code addWatch}, {@code setWatches2}), no {@code getEphemerals}, no
 *   {@code multiRead};</li>
 *   <li>3.6 and later: everything zkgroups uses.</li>
 * </ul>
 */
public enum ServerGeneration {
    V3_4("3.4"),
    V3_5("3.5"),
    V3_6_OR_LATER("3.6+");

    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)(?:\\.\\d+)?(?:[-.].*)?");

    private final String label;

    ServerGeneration(String label) {
        this.label = label;
    }

    /** {@code create2}: a create that answers the new node's stat. */
    public boolean hasCreate2() {
        return this != V3_4;
    }

    /** {@code checkWatches} and {@code removeWatches}, which Curator's {@code removeWatchers()} sends. */
    public boolean hasWatchRemoval() {
        return this != V3_4;
    }

    /** {@code addWatch} (persistent, recursive watches) and {@code setWatches2}. */
    public boolean hasPersistentWatches() {
        return this == V3_6_OR_LATER;
    }

    /** {@code getEphemerals}. */
    public boolean hasGetEphemerals() {
        return this == V3_6_OR_LATER;
    }

    /** {@code multiRead}: many reads in one request. */
    public boolean hasMultiRead() {
        return this == V3_6_OR_LATER;
    }

    public String label() {
        return label;
    }

    /**
     * The generation of a server version such as {@code 3.5.10} or {@code 3.9.5-1234abc}, or of a setting such as
     * {@code 3.4}, {@code 3.6}.
     *
     * @throws IllegalArgumentException if {@code version} is not a ZooKeeper version, or is older than 3.4 (which has no
     *                                  {@code multi}: zkgroups cannot work with it)
     */
    public static ServerGeneration ofVersion(String version) {
        Matcher m = VERSION.matcher(version.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a ZooKeeper version: '" + version + "' (expected e.g. 3.4, 3.5.10, 3.9)");
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        if (major < 3 || (major == 3 && minor < 4)) {
            throw new IllegalArgumentException("ZooKeeper " + version.trim() + " is not supported: zkgroups needs a"
                    + " server 3.4 or later (multi requests)");
        }
        if (major == 3 && minor == 4) {
            return V3_4;
        }
        return major == 3 && minor == 5 ? V3_5 : V3_6_OR_LATER;
    }

    /** The generation a setting names, or null for {@code auto} (learn it from the server). */
    public static ServerGeneration ofSetting(String setting) {
        String s = setting.trim().toLowerCase(Locale.ROOT);
        return s.equals("auto") ? null : ofVersion(s);
    }

    @Override
    public String toString() {
        return label;
    }
}
