package io.zkgroups.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the real 0.8.2.2 consumer driver's classpath comes from: {@code zkgroups.legacy.classpath} (set by
 * bin/zkgroups), or the legacy-driver module's build output named by {@code zkgroups.legacy.classes} and
 * {@code zkgroups.legacy.classpathFile} (set by the tests). The demo does not run without it: a group without its
 * 0.8.2.2 member would not show what it promises.
 */
final class LegacyClasspath {

    private LegacyClasspath() {
    }

    /** The classpath; throws, naming what is missing, when there is none. */
    static String find() {
        String direct = System.getProperty("zkgroups.legacy.classpath", "");
        if (!direct.isBlank()) {
            return direct;
        }
        String classes = System.getProperty("zkgroups.legacy.classes", "");
        String file = System.getProperty("zkgroups.legacy.classpathFile", "");
        if (classes.isBlank() || file.isBlank()) {
            throw new IllegalStateException("the kafka 0.8.2.2 consumer driver's classpath is not set: run "
                    + "`bin/zkgroups demo` (it builds legacy-driver and sets it), or pass --legacy-classpath");
        }
        if (!Files.isRegularFile(Path.of(file))) {
            throw new IllegalStateException("the kafka 0.8.2.2 consumer driver's classpath file " + file
                    + " does not exist: build it with `mvn -B package -DskipTests -pl legacy-driver -am`, or pass "
                    + "--legacy-classpath");
        }
        try {
            return classes + java.io.File.pathSeparator + Files.readString(Path.of(file)).trim();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the kafka 0.8.2.2 consumer driver's classpath file " + file
                    + ": " + e.getMessage(), e);
        }
    }
}
