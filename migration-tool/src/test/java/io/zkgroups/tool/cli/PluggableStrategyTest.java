package io.zkgroups.tool.cli;

import io.zkgroups.rebalancer.assign.AssignorType;
import io.zkgroups.rebalancer.assign.Assignors;
import io.zkgroups.rebalancer.assign.RangeAssignor;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code --strategy} takes its values from the assignor registry: one registered in a test is listed and accepted. */
@ResourceLock("io.zkgroups.rebalancer.assign.Assignors")
class PluggableStrategyTest {

    private static final String NAME = "test-cli-assignor";

    private static String help(String... command) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = Main.run(command, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertThat(code).isZero();
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aRegisteredAssignorIsListedInTheHelpAndAccepted() {
        try (Assignors.Registration ignored = Assignors.register(AssignorType.own(NAME, RangeAssignor::new, "this test"))) {
            assertThat(help("groups", "describe", "--help")).contains("range, roundrobin, sticky, " + NAME);
            assertThat(help("health", "--help")).contains("range, roundrobin, sticky, " + NAME);
            assertThatCode(() -> Strategies.validate(NAME)).doesNotThrowAnyException();
        }
        assertThat(help("groups", "describe", "--help")).contains("range, roundrobin, sticky:").doesNotContain(NAME);
        assertThatThrownBy(() -> Strategies.validate(NAME)).isInstanceOf(CliException.class)
                .hasMessage("--strategy must be range, roundrobin or sticky, got '" + NAME + "'");
    }
}
