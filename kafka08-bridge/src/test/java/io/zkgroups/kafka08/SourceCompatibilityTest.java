package io.zkgroups.kafka08;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Programs written against the real kafka_2.10:0.8.2.2 jar (legacy-driver compiles them against it) compiled against
 * this bridge instead: the wiki's consumer group example compiles unchanged; the 0.8.2.2 test driver needs exactly
 * one change, where it reads {@code ConsumerConfig.consumerId()}, a {@code scala.Option} in 0.8.2.2.
 */
class SourceCompatibilityTest {

    @TempDir
    Path out;

    private static final Path LEGACY_SOURCE_ROOT = Path.of("..", "testing", "legacy-driver", "src", "main", "java");
    private static final Path LEGACY_SOURCES = LEGACY_SOURCE_ROOT.resolve(Path.of("io", "zkgroups", "legacy"));

    @Test
    void theConsumerGroupExampleCompilesUnchangedAgainstTheBridge() throws IOException {
        assertThat(compile(LEGACY_SOURCES.resolve("ConsumerGroupExample.java"))).isEmpty();
    }

    @Test
    void theLegacyDriverDiffersOnlyWhereItTreatsConsumerIdAsAScalaOption() throws IOException {
        List<String> errors = compile(LEGACY_SOURCES.resolve("LegacyConsumerMain.java"));
        assertThat(errors).singleElement().asString()
                .contains("config.consumerId().isDefined()")
                .contains("cannot find symbol");
    }

    /**
     * Compiles {@code source} (and the classes of its program it uses) against this module's classes and dependencies;
     * returns the errors, each with its line.
     */
    private List<String> compile(Path source) throws IOException {
        assertThat(source).as("legacy-driver source").exists();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            // the program's other classes (the driver's helpers) come from its sources, compiled along
            List<String> options = List.of("-classpath", System.getProperty("java.class.path"), "-sourcepath",
                    LEGACY_SOURCE_ROOT.toString(), "-d", out.toString(), "-proc:none", "--release", "17");
            javac.getTask(null, files, diagnostics, options, null, files.getJavaFileObjects(source.toFile())).call();
        }
        List<String> lines = Files.readAllLines(source);
        return diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                .map(d -> d.getMessage(Locale.ROOT) + " | " + lines.get((int) d.getLineNumber() - 1).trim())
                .toList();
    }
}
