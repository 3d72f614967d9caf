package io.zkgroups.tool.cli;

import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.Main;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class HelpTest {

    @Test
    void theHelpListsEveryExitCodeWithItsMeaning() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = Main.run(new String[] {"--help"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        assertThat(code).isZero();
        String help = out.toString(StandardCharsets.UTF_8);
        String codes = help.substring(help.indexOf("Exit codes"));
        String unwrapped = codes.replaceAll("\\s+", " ");
        for (ExitCode exit : ExitCode.values()) {
            assertThat(unwrapped).contains(" " + exit.code() + " " + exit.meaning().substring(0, 20));
            assertThat(unwrapped).contains(exit.meaning().replaceAll("\\s+", " "));
        }
    }
}
