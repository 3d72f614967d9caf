package io.zkgroups.tool.cli;

import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.output.Json;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** A leaf command: common options, clients opened for the run and closed after, output helpers. */
abstract class AbstractCommand implements Callable<Integer> {

    @Mixin
    CommonOptions common;

    @Spec
    CommandSpec spec;

    @Override
    public final Integer call() {
        try (Clients clients = common.clients()) {
            clients.invocation(io.zkgroups.tool.audit.Invocation.current("zkgroups",
                    spec.commandLine().getParseResult().originalArgs(), BuildVersion.version()));
            return run(clients).code();
        }
    }

    /** Does the work; returns the exit code. Throws {@link io.zkgroups.tool.CliException} for failures. */
    abstract ExitCode run(Clients clients);

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    boolean json() {
        return common.json();
    }

    void printJson(Object value) {
        Json.print(out(), value);
    }

    void warn(String message) {
        err().println("zkgroups: warning: " + message);
        err().flush();
    }

    /** Whether progress should be shown without --progress: stderr is a terminal (only when run by main()). */
    static boolean terminal() {
        return System.console() != null;
    }
}
