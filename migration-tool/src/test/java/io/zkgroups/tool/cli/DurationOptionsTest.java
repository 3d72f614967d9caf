package io.zkgroups.tool.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every duration option of every command (timeouts, waits, intervals) takes Kafka's plain milliseconds too. */
class DurationOptionsTest {

    @Test
    void everyDurationOptionAcceptsPlainMilliseconds() throws Exception {
        List<String> checked = new ArrayList<>();
        collect(new CommandLine(new ZkGroupsCommand()), checked);

        assertThat(checked).contains("zkgroups health --timeout", "zkgroups health --wait", "zkgroups consume --timeout",
                "zkgroups consume --timeout-ms", "zkgroups lag --interval", "zkgroups groups describe --timeout");
    }

    private static void collect(CommandLine cmd, List<String> checked) throws Exception {
        for (OptionSpec option : cmd.getCommandSpec().options()) {
            if (option.type() == Duration.class) {
                String name = cmd.getCommandSpec().qualifiedName() + " " + option.longestName();
                assertThat(option.converters()).as(name).hasSize(1);
                assertThat(option.converters()[0].convert("5000")).as(name).isEqualTo(Duration.ofMillis(5000));
                assertThat(option.converters()[0].convert("5s")).as(name).isEqualTo(Duration.ofSeconds(5));
                checked.add(name);
            }
        }
        for (CommandLine sub : cmd.getSubcommands().values()) {
            collect(sub, checked);
        }
    }
}
