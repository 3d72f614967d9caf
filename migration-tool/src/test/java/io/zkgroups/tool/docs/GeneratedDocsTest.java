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
        assertThat(staleness(Files.readString(file), generated)).as(file + " against the command line (see this "
                + "test's javadoc)").isNull();
    }

    @Test
    void theConsumerConfigReferenceIsTheKeyTable() throws IOException {
        Path file = DOCS.resolve("consumer-config.md");
        String generated = ConsumerConfigReference.page();
        if (WRITE) {
            Files.writeString(file, generated);
            return;
        }
        assertThat(staleness(Files.exists(file) ? Files.readString(file) : "", generated))
                .as(file + " against ConsumerKeys (see this test's javadoc)").isNull();
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
        assertThat(staleness(page, generated)).as(file + " against ExitCode (see this test's javadoc)").isNull();
    }

    /**
     * Why the committed page is not what the code generates, or null when it is: the first line that differs, as
     * committed and as generated.
     */
    static String staleness(String committed, String generated) {
        if (committed.equals(generated)) {
            return null;
        }
        String[] have = committed.split("\n", -1);
        String[] want = generated.split("\n", -1);
        for (int i = 0; i < Math.max(have.length, want.length); i++) {
            String h = i < have.length ? have[i] : "(end of page)";
            String w = i < want.length ? want[i] : "(end of page)";
            if (!h.equals(w)) {
                return "line " + (i + 1) + " is\n  " + h + "\nthe code generates\n  " + w;
            }
        }
        return "the pages differ";
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

    @Test
    void aStaleConsumerConfigTableIsFound() {
        String fresh = ConsumerConfigReference.page();
        assertThat(staleness(fresh, ConsumerConfigReference.page())).isNull();

        String row = "| `auto.commit.interval.ms` | int | 60000 | `auto.commit.interval.ms` | Auto-commit period. |";
        assertThat(fresh).contains(row);
        String staleDefault = fresh.replace(row, row.replace("60000", "10000"));
        assertThat(staleness(staleDefault, fresh)).contains("| `auto.commit.interval.ms` | int | 10000 |")
                .contains("| `auto.commit.interval.ms` | int | 60000 |");

        String keyMissing = fresh.replace(row + "\n", "");
        assertThat(staleness(keyMissing, fresh)).isNotNull().contains("`auto.commit.interval.ms`");

        String keyUnknown = fresh.replace(row, row + "\n| `auto.commit.jitter.ms` | int | 0 | — | Not a key. |");
        assertThat(staleness(keyUnknown, fresh)).contains("`auto.commit.jitter.ms`");

        String editedByHand = fresh.replace("Auto-commit period.", "How often offsets are committed.");
        assertThat(staleness(editedByHand, fresh)).contains("How often offsets are committed.");
    }
}
