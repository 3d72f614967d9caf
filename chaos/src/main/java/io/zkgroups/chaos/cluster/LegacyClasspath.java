package io.zkgroups.chaos.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The classpath of the real 0.8.2.2 consumer: {@code legacy-driver/target/classes} (or {@code classes.jar}, as
 * bench/chaos.sh's copy holds it) plus the dependency list that module writes to
 * {@code legacy-driver/target/legacy-classpath.txt} (Kafka 0.8.2.2, ZooKeeper 3.4.6, Scala 2.10), found in
 * {@code -Dchaos.legacy.target} (bench/chaos.sh's copy), else from the repository root or from a module directory
 * (the ITs).
 */
final class LegacyClasspath {

    private LegacyClasspath() {
    }

    static String find() {
        String copy = System.getProperty("chaos.legacy.target");
        List<Path> candidates = copy != null ? List.of(Path.of(copy))
                : List.of(Path.of("legacy-driver", "target"), Path.of("..", "legacy-driver", "target"));
        for (Path target : candidates) {
            Path classes = Files.isRegularFile(target.resolve("classes.jar")) ? target.resolve("classes.jar")
                    : target.resolve("classes");
            Path list = target.resolve("legacy-classpath.txt");
            if (Files.exists(classes) && Files.isRegularFile(list)) {
                try {
                    String deps = Files.readString(list, StandardCharsets.UTF_8).trim();
                    return classes.toAbsolutePath() + (deps.isEmpty() ? "" : java.io.File.pathSeparator + deps);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new ChaosException("the 0.8.2.2 consumer driver is not built (legacy-driver/target/classes and "
                + "legacy-classpath.txt): run `mvn -B -DskipTests package -pl legacy-driver` (bench/chaos.sh does)");
    }
}
