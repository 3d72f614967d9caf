package io.zkgroups.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the real 0.8.2.2 consumer driver's classpath comes from: {@code zkgroups.legacy.classpath} (set by
 * bin/zkgroups), or the legacy-driver module's build output named by {@code zkgroups.legacy.classes} and
 * {@code zkgroups.legacy.classpathFile} (set by the tests). Empty when neither is there: the demo then says
 * plainly that it runs without the 0.8.2.2 consumer.
 */
final class LegacyClasspath {

    private LegacyClasspath() {
    }

    static String find() {
        String direct = System.getProperty("zkgroups.legacy.classpath", "");
        if (!direct.isBlank()) {
            return direct;
        }
        String classes = System.getProperty("zkgroups.legacy.classes", "");
        String file = System.getProperty("zkgroups.legacy.classpathFile", "");
        if (classes.isBlank() || file.isBlank() || !Files.isRegularFile(Path.of(file))) {
            return "";
        }
        try {
            return classes + java.io.File.pathSeparator + Files.readString(Path.of(file)).trim();
        } catch (IOException e) {
            return "";
        }
    }
}
