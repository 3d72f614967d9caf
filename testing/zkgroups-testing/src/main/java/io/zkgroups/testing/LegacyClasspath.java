package io.zkgroups.testing;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The classpath of the real 0.8.2.2 consumer driver: the legacy-driver module's classes (LegacyConsumerMain,
 * ConsumerGroupExample, compiled against kafka_2.10:0.8.2.2) plus the dependency list that module writes to
 * {@code testing/legacy-driver/target/legacy-classpath.txt} (Kafka 0.8.2.2, ZooKeeper 3.4.6, Scala 2.10). Found, first match
 * wins, through:
 * <ol>
 *   <li>{@code zkgroups.legacy.classpath}: the whole classpath (bin/zkgroups sets it);</li>
 *   <li>{@code zkgroups.legacy.classes} and {@code zkgroups.legacy.classpathFile}, or {@code legacy.driver.classes}
 *       and {@code legacy.driver.classpathFile}: the classes and the dependency list (the tests' failsafe and
 *       surefire settings);</li>
 *   <li>{@code chaos.legacy.target}: a copy of testing/legacy-driver/target with {@code classes.jar} or {@code classes}
 *       (tools/bench/chaos.sh's copy);</li>
 *   <li>{@code testing/legacy-driver/target} of the repository, seen from its root or from a module one or two
 *       levels below it (a tool or a test run in the repository).</li>
 * </ol>
 */
public final class LegacyClasspath {

    /** How messages name it. */
    public static final String WHAT = "the kafka 0.8.2.2 consumer driver's classpath";

    private LegacyClasspath() {
    }

    /**
     * The classpath, from the system properties or a build below the working directory.
     *
     * @throws IllegalStateException naming what is missing and how to build it
     */
    public static String find() {
        return fromProperties().orElseGet(LegacyClasspath::fromBuild);
    }

    /**
     * The classpath the system properties (1 and 2 above) name; empty if they name none.
     *
     * @throws IllegalStateException if they name a dependency list that does not exist
     */
    public static Optional<String> fromProperties() {
        String direct = System.getProperty("zkgroups.legacy.classpath", "");
        if (!direct.isBlank()) {
            return Optional.of(direct);
        }
        for (String prefix : List.of("zkgroups.legacy.", "legacy.driver.")) {
            String classes = System.getProperty(prefix + "classes", "");
            String file = System.getProperty(prefix + "classpathFile", "");
            if (!classes.isBlank() && !file.isBlank()) {
                if (!Files.isRegularFile(Path.of(file))) {
                    throw new IllegalStateException(WHAT + " file " + file + " does not exist: build it with "
                            + "`mvn -B package -DskipTests -pl :legacy-driver -am`");
                }
                return Optional.of(join(Path.of(classes), Path.of(file)));
            }
        }
        return Optional.empty();
    }

    private static String fromBuild() {
        String copy = System.getProperty("chaos.legacy.target");
        List<Path> targets = copy != null ? List.of(Path.of(copy))
                : Stream.of(".", "..", "../..")
                        .map(root -> Path.of(root, "testing", "legacy-driver", "target")).toList();
        for (Path target : targets) {
            Path classes = Files.isRegularFile(target.resolve("classes.jar")) ? target.resolve("classes.jar")
                    : target.resolve("classes");
            Path list = target.resolve("legacy-classpath.txt");
            if (Files.exists(classes) && Files.isRegularFile(list)) {
                return join(classes.toAbsolutePath(), list);
            }
        }
        throw new IllegalStateException(WHAT + " is not set (system property zkgroups.legacy.classpath, or "
                + "zkgroups.legacy.classes and zkgroups.legacy.classpathFile) and testing/legacy-driver/target holds no build: "
                + "run `mvn -B package -DskipTests -pl :legacy-driver -am`");
    }

    private static String join(Path classes, Path dependencyList) {
        try {
            String dependencies = Files.readString(dependencyList, StandardCharsets.UTF_8).trim();
            return dependencies.isEmpty() ? classes.toString() : classes + File.pathSeparator + dependencies;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + WHAT + " file " + dependencyList + ": " + e.getMessage(), e);
        }
    }
}
