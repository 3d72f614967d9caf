package io.zkgroups.demo;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/** Without the 0.8.2.2 consumer driver's classpath the demo refuses to start, and says what is missing. */
class DemoWithoutLegacyClasspathTest {

    private static final String[] KEYS = {"zkgroups.legacy.classpath", "zkgroups.legacy.classes",
            "zkgroups.legacy.classpathFile"};
    private final Properties saved = new Properties();

    @BeforeEach
    void clearLegacyProperties() {
        for (String key : KEYS) {
            String value = System.getProperty(key);
            if (value != null) {
                saved.setProperty(key, value);
            }
            System.clearProperty(key);
        }
    }

    @AfterEach
    void restoreLegacyProperties() {
        for (String key : KEYS) {
            System.clearProperty(key);
        }
        saved.forEach((k, v) -> System.setProperty((String) k, (String) v));
    }

    private static String stderrOf(Runnable run) {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try (PrintStream err = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            System.setErr(err);
            run.run();
        } finally {
            System.setErr(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aMissingClasspathFileIsNamed(@TempDir Path dir) {
        Path missing = dir.resolve("legacy-classpath.txt");
        System.setProperty("zkgroups.legacy.classes", dir.resolve("classes").toString());
        System.setProperty("zkgroups.legacy.classpathFile", missing.toString());
        int[] exit = new int[1];

        String err = stderrOf(() -> exit[0] = Demo.run(new String[0]));

        assertThat(exit[0]).isEqualTo(2);
        assertThat(err).contains("demo: the kafka 0.8.2.2 consumer driver's classpath file " + missing
                + " does not exist");
    }

    @Test
    void noClasspathAtAllSaysHowToGetOne() {
        int[] exit = new int[1];

        String err = stderrOf(() -> exit[0] = Demo.run(new String[0]));

        assertThat(exit[0]).isEqualTo(2);
        assertThat(err).contains("classpath is not set").contains("--legacy-classpath");
    }
}
