package io.zkgroups.chaos.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Class-data archives for the member JVMs of a run (AppCDS, JEP 350): one per kind of member ({@code ours},
 * {@code legacy}), written at the exit of an unmeasured training member ({@code -XX:ArchiveClassesAtExit}) and mapped
 * by every member of that kind after it ({@code -XX:SharedArchiveFile}), so that a fresh JVM finds its classes parsed,
 * verified and linked instead of loading them from the jars. Every kind gets the same treatment; the JVM's
 * warnings go to stderr in every member JVM (an archive that does not fit says so there, and the JVM goes on without
 * it), never to the stdout lines the orchestrator reads.
 * <p>
 * The archive checks the class path it was written with: every entry must be a jar (tools/bench/chaos.sh jars the classes
 * directories of its copy) and stay unchanged for the run.
 */
public final class ClassData {

    private final Path dir;

    private ClassData(Path dir) {
        this.dir = dir;
    }

    /** No archives: member JVMs start as they would. */
    public static ClassData none() {
        return new ClassData(null);
    }

    /** Archives kept in {@code dir}, one file per kind of member. */
    public static ClassData in(Path dir) {
        return new ClassData(dir);
    }

    public boolean enabled() {
        return dir != null;
    }

    public Path archive(String kind) {
        return dir.resolve(kind + ".jsa");
    }

    /** The options of the training JVM of {@code kind}: it writes the archive when it exits. */
    List<String> trainingOptions(String kind) {
        return withWarningsOnStderr("-XX:ArchiveClassesAtExit=" + archive(kind));
    }

    /** The options of every measured member JVM of {@code kind}: none without archives. */
    List<String> memberOptions(String kind) {
        if (!enabled()) {
            return List.of();
        }
        if (!Files.isRegularFile(archive(kind))) {
            throw new ChaosException("no class-data archive " + archive(kind) + ": the training member of kind " + kind
                    + " has not written it");
        }
        return withWarningsOnStderr("-XX:SharedArchiveFile=" + archive(kind));
    }

    private static List<String> withWarningsOnStderr(String option) {
        return List.of("-Xlog:disable", "-Xlog:all=warning:stderr", option);
    }
}
