package io.zkgroups.tool.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The references in docs/ that are written from the code are what the code writes now. After a change to the command
 * line, the exit codes or the consumer's keys, rewrite them with
 * {@code mvn -B test -pl migration-tool -am -Dtest=GeneratedDocsTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dzkgroups.docs.write=true} and commit the result.
 */
class GeneratedDocsTest {

    private static final Path DOCS = Path.of("..", "docs").toAbsolutePath().normalize();
    private static final boolean WRITE = Boolean.getBoolean("zkgroups.docs.write");

    @Test
    void theCommandReferenceIsTheCommandLines() throws IOException {
        Path file = DOCS.resolve("cli-reference.md");
        String generated = CliReference.commands();
        if (WRITE) {
            Files.writeString(file, generated);
            return;
        }
        assertThat(Files.readString(file)).as(file + " against the command line (see this test's javadoc)")
                .isEqualTo(generated);
    }

    @Test
    void theConsumerConfigReferenceIsTheKeyTable() throws IOException {
        Path file = DOCS.resolve("consumer-config.md");
        String generated = ConsumerConfigReference.page();
        if (WRITE) {
            Files.writeString(file, generated);
            return;
        }
        assertThat(Files.exists(file) ? Files.readString(file) : "")
                .as(file + " against ConsumerKeys (see this test's javadoc)").isEqualTo(generated);
    }

    @Test
    void theExitCodeTableIsExitCodes() throws IOException {
        Path file = DOCS.resolve("cli.md");
        String page = Files.readString(file);
        String generated = GeneratedSection.replace(page, "exit-codes", CliReference.exitCodes());
        if (WRITE) {
            Files.writeString(file, generated);
            return;
        }
        assertThat(page).as(file + " against ExitCode (see this test's javadoc)").isEqualTo(generated);
    }

    @Test
    void aStaleTableIsFound() {
        String fresh = GeneratedSection.replace("intro\n<!-- generated: exit-codes -->\n<!-- end -->\nrest\n",
                "exit-codes", CliReference.exitCodes());
        assertThat(fresh).contains("| 0 | `OK` |").endsWith("<!-- end -->\nrest\n");
        String stale = fresh.replace("| 2 | `USAGE` |", "| 2 | `USAGE_ERROR` |");
        assertThat(GeneratedSection.replace(stale, "exit-codes", CliReference.exitCodes())).isEqualTo(fresh)
                .isNotEqualTo(stale);
        assertThat(CliReference.commands()).contains("## `zkgroups health`", "`--expect-members N`",
                "## `zkgroups migrate execute`");
        assertThat(ConsumerConfigReference.page()).contains("| `auto.commit.enable` | boolean | true | `enable.auto.commit` |",
                "| `zkgroups.rebalance.kafka.timeout.ms` | int | 2000 | — |");
        assertThatThrownBy(() -> GeneratedSection.replace("no markers", "exit-codes", "x"))
                .hasMessageContaining("<!-- generated: exit-codes -->");
    }
}
