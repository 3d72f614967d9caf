package io.zkgroups.tool.cli;

import io.zkgroups.tool.Main;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --dry-run} is the explicit opposite of {@code --execute} on every command that has it. */
class WriteModeTest {

    /** The command lines of the three writing commands, without --execute/--dry-run. */
    private static List<String> command(String which) {
        return new ArrayList<>(switch (which) {
            case "delete" -> List.of("groups", "delete", "--group", "g");
            case "reset" -> List.of("offsets", "reset", "--group", "g", "--all-topics", "--to-earliest");
            default -> List.of("offsets", "import", "--file", "offsets.txt");
        });
    }

    private static WriteMode parsed(String which, String... extra) {
        List<String> args = command(which);
        args.addAll(List.of(extra));
        CommandLine.ParseResult result = new CommandLine(new ZkGroupsCommand()).parseArgs(args.toArray(String[]::new));
        CommandLine.ParseResult leaf = result;
        while (leaf.subcommand() != null) {
            leaf = leaf.subcommand();
        }
        Object command = leaf.commandSpec().userObject();
        return command instanceof GroupsCommand.Delete d ? d.writeMode
                : command instanceof OffsetsCommand.Reset r ? r.writeMode : ((OffsetsCommand.Import) command).writeMode;
    }

    @ParameterizedTest
    @ValueSource(strings = {"delete", "reset", "import"})
    void dryRunAndNeitherOptionOnlyPlanExecuteWrites(String which) {
        assertThat(parsed(which).execute()).isFalse();
        assertThat(parsed(which, "--dry-run").execute()).isFalse();
        assertThat(parsed(which, "--execute").execute()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"delete", "reset", "import"})
    void bothTogetherAreAUsageErrorBeforeAnythingConnects(String which) {
        List<String> args = command(which);
        args.addAll(List.of("--execute", "--dry-run", "--zookeeper", "127.0.0.1:1"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(code).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("zkgroups: ")
                .contains("--execute", "--dry-run", "mutually exclusive");
    }
}
