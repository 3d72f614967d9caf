package io.zkgroups.tool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class LoggingConfigurationTest {

    private static final String LEVEL = "org.slf4j.simpleLogger.log.io.zkgroups.test.level";
    private static final String FORMAT = "org.slf4j.simpleLogger.log.io.zkgroups.test.format";

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @AfterEach
    void clear() {
        System.clearProperty(LEVEL);
        System.clearProperty(FORMAT);
        System.clearProperty("unrelated.key");
    }

    private PrintStream err() {
        return new PrintStream(err, true, StandardCharsets.UTF_8);
    }

    @Test
    void theFilesSimpleLoggerKeysBecomeSystemPropertiesAndNothingElse(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("simplelogger.properties"), LEVEL + "=debug \n" + "unrelated.key=x\n");

        LoggingConfiguration.apply(dir.resolve("simplelogger.properties"), err());

        assertThat(System.getProperty(LEVEL)).isEqualTo("debug");
        assertThat(System.getProperty("unrelated.key")).isNull();
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void aPropertySetOnTheCommandLineWinsOverTheFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("simplelogger.properties"), LEVEL + "=debug\n" + FORMAT + "=x\n");
        System.setProperty(LEVEL, "error");

        LoggingConfiguration.apply(dir.resolve("simplelogger.properties"), err());

        assertThat(System.getProperty(LEVEL)).isEqualTo("error");
        assertThat(System.getProperty(FORMAT)).isEqualTo("x");
    }

    @Test
    void noFileIsNoConfigurationAndAnUnreadableOneIsNamed(@TempDir Path dir) throws Exception {
        LoggingConfiguration.apply(dir.resolve("absent.properties"), err());
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();

        Path notAFile = Files.createDirectory(dir.resolve("simplelogger.properties"));
        LoggingConfiguration.apply(notAFile, err());
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("cannot read the logging configuration " + notAFile)
                .contains("logging with the defaults");
        assertThat(System.getProperty(LEVEL)).isNull();
    }
}
