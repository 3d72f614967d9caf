package io.zkgroups.tool.cli;

import io.zkgroups.tool.ExitCode;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** A command that only groups subcommands: without one it prints its usage and exits with 2. */
abstract class ParentCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("zkgroups: missing subcommand");
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCode.USAGE.code();
    }
}
