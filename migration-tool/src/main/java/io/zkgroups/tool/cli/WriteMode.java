package io.zkgroups.tool.cli;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/**
 * {@code --execute} and its explicit opposite {@code --dry-run}, for every command that writes: without either the
 * plan is only printed. Giving both is a usage error (exit 2), caught while the command line is parsed.
 */
final class WriteMode {

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Choice choice;

    static final class Choice {
        @Option(names = "--execute", required = true, description = "Write (without it, only the plan is printed).")
        boolean execute;

        @Option(names = "--dry-run", required = true,
                description = "Only print the plan, write nothing (the default; the opposite of --execute).")
        boolean dryRun;
    }

    boolean execute() {
        return choice != null && choice.execute;
    }
}
