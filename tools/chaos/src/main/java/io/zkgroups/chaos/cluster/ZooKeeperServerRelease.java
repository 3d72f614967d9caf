package io.zkgroups.chaos.cluster;

import org.apache.zookeeper.Version;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which ZooKeeper the ensemble's servers run: the one on the tool's own classpath, or an older release from a
 * classpath file (as the modules under {@code servers/} write one), so that the same faults
 * are run against the 3.4 and 3.5 ensembles the fleet still has.
 *
 * @param version   the server's version, as reported
 * @param classpath the servers' classpath; null for the tool's own
 */
public record ZooKeeperServerRelease(String version, String classpath) {

    private static final Pattern JAR_VERSION = Pattern.compile("zookeeper-(\\d+\\.\\d+\\.\\d+)\\.jar");

    /** The ZooKeeper server on this JVM's classpath. */
    public static ZooKeeperServerRelease current() {
        return new ZooKeeperServerRelease(Version.getFullVersion().replaceAll("[-, ].*", ""), null);
    }

    /**
     * The release whose jars a classpath file lists; its version is taken from the {@code zookeeper-X.Y.Z.jar} in it.
     *
     * @throws IllegalArgumentException if the file cannot be read or names no ZooKeeper jar
     */
    public static ZooKeeperServerRelease fromClasspathFile(Path file) {
        String classpath;
        try {
            classpath = Files.readString(file).trim();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the ZooKeeper server classpath file " + file + ": " + e, e);
        }
        Matcher m = JAR_VERSION.matcher(classpath);
        if (!m.find()) {
            throw new IllegalArgumentException("the classpath file " + file + " names no zookeeper-X.Y.Z.jar");
        }
        return new ZooKeeperServerRelease(m.group(1), classpath);
    }

    /** Whether the servers run on the tool's own classpath. */
    public boolean isCurrent() {
        return classpath == null;
    }
}
