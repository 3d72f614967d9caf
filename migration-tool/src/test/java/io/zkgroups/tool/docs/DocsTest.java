package io.zkgroups.tool.docs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The README and every page under docs/ agree with the command line, with each other and with the build's version. */
class DocsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void everyPageAgreesWithTheCodeAndTheOtherPages() throws IOException {
        DocChecks checks = new DocChecks(ROOT, buildVersion());
        List<Path> pages;
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            pages = Stream.concat(Stream.of(ROOT.resolve("README.md"), ROOT.resolve("integration-tests/README.md")),
                    docs.filter(p -> p.toString().endsWith(".md")).sorted()).toList();
        }
        assertThat(pages).hasSizeGreaterThan(5);
        List<String> problems = pages.stream().flatMap(p -> checks.problems(p, DocChecks.read(p)).stream()).toList();
        assertThat(problems).as("problems in the docs").isEmpty();
    }

    @Test
    void aCommandLineTheCliDoesNotTakeIsFound(@TempDir Path dir) {
        String page = """
                ```bash
                zkgroups health --group orders --wait 60s --expect-members 4
                zkgroups health --group G --expect-members N
                zkgroups health --group orders --no-such-option
                zkgroups offsets reset \\
                  --group orders --to-earliest --bogus
                zkgroups describe-all   # not a command
                ```
                In prose `zkgroups health --wait` may leave out the group, but `zkgroups lag --colour` is wrong.
                """;
        List<String> problems = new DocChecks(dir, "1.0").problems(dir.resolve("p.md"), page);
        assertThat(problems).hasSize(4);
        assertThat(problems.get(0)).startsWith("p.md:4:").contains("--no-such-option");
        assertThat(problems.get(1)).startsWith("p.md:5:").contains("--bogus");
        assertThat(problems.get(2)).startsWith("p.md:7:").contains("describe-all");
        assertThat(problems.get(3)).startsWith("p.md:9:").contains("--colour");
    }

    @Test
    void aBrokenLinkOrAnchorIsFound(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("other.md"), "# Other page\n## Brokers: 2.8 to 4.x\n");
        String page = """
                # Here
                [ok](other.md) [ok](other.md#brokers-28-to-4x) [ok](#here) [web](https://kafka.apache.org)
                [gone](missing.md) [stale anchor](other.md#brokers) [own](#nowhere)
                """;
        List<String> problems = new DocChecks(dir, "1.0").problems(dir.resolve("p.md"), page);
        assertThat(problems).containsExactly(
                "p.md:3: link missing.md: no such file",
                "p.md:3: link other.md#brokers: no heading makes the anchor #brokers",
                "p.md:3: link #nowhere: no heading makes the anchor #nowhere");
    }

    @Test
    void aVersionThatIsNotTheBuildsIsFound(@TempDir Path dir) {
        String page = """
                ```xml
                <dependency>
                  <groupId>io.zkgroups</groupId>
                  <artifactId>rebalancer</artifactId>
                  <version>0.0.9</version>
                </dependency>
                ```
                ```kotlin
                implementation(platform("io.zkgroups:zkgroups-bom:1.0"))
                implementation("io.zkgroups:registry:0.0.9")
                ```
                """;
        assertThat(new DocChecks(dir, "1.0").problems(dir.resolve("p.md"), page)).containsExactly(
                "p.md:3: io.zkgroups:rebalancer at version 0.0.9, the build makes 1.0",
                "p.md:10: io.zkgroups:registry at version 0.0.9, the build makes 1.0");
    }

    /** The version in the root pom, which every module inherits. */
    private static String buildVersion() throws IOException {
        Matcher m = Pattern.compile("<artifactId>zkgroups-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertThat(m.find()).as("the root pom's version").isTrue();
        return m.group(1);
    }
}
