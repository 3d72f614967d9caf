package io.zkgroups.tool;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The logging configuration of an installation: {@code simplelogger.properties} in the directory the launcher names
 * ({@code -Dzkgroups.conf.dir}, the distribution's {@code conf/}), applied as the System properties slf4j-simple
 * reads before its own file. Read from the directory rather than through the class path, so that the class path holds
 * jars only, as a class-data archive needs (the distribution's {@code ZKGROUPS_CLASS_DATA}). A property already set
 * ({@code -D} in {@code ZKGROUPS_JAVA_OPTS}) wins over the file; a key the file does not set keeps the jar's default.
 */
final class LoggingConfiguration {

    static final String CONF_DIR_PROPERTY = "zkgroups.conf.dir";
    static final String FILE = "simplelogger.properties";
    private static final String PREFIX = "org.slf4j.simpleLogger.";

    private LoggingConfiguration() {
    }

    /** Applies the file of {@code -Dzkgroups.conf.dir}, if that is set; must run before the first logger exists. */
    static void apply(PrintStream err) {
        String dir = System.getProperty(CONF_DIR_PROPERTY);
        if (dir != null && !dir.isEmpty()) {
            apply(Path.of(dir).resolve(FILE), err);
        }
    }

    /** Applies {@code file}; a missing file is no configuration, an unreadable one a warning on {@code err}. */
    static void apply(Path file, PrintStream err) {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        } catch (NoSuchFileException e) {
            return;
        } catch (IOException | IllegalArgumentException e) {
            err.println("zkgroups: warning: cannot read the logging configuration " + file + " (" + e.getMessage()
                    + "); logging with the defaults");
            return;
        }
        for (String key : properties.stringPropertyNames()) {
            if (key.startsWith(PREFIX) && System.getProperty(key) == null) {
                System.setProperty(key, properties.getProperty(key).trim());
            }
        }
    }
}
