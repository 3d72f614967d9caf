package io.zkgroups.tool;

import io.zkgroups.tool.cli.ZkGroupsCommand;
import picocli.CommandLine;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The {@code zkgroups} command line. {@link #main} is for the launcher ({@code bin/zkgroups}); {@link #run} is
 * the same program for callers in the same JVM (tests, a runbook driver): it never calls
 * {@code System.exit}, writes only to the given streams and returns the exit code (see {@link ExitCode}).
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        LoggingConfiguration.apply(System.err);
        if (Arrays.asList(args).contains("--verbose")) {
            // before any logger exists: libraries log at INFO, still to stderr
            // (over the installation's file too: LoggingConfiguration set only what was not set)
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "info");
            for (String lib : new String[]{"org.apache.zookeeper", "org.apache.kafka", "org.apache.curator"}) {
                System.setProperty("org.slf4j.simpleLogger.log." + lib, "info");
            }
        }
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs one command.
     *
     * @param out where results go (tables, JSON): nothing else is ever written there
     * @param err where errors, warnings and progress go
     * @return the exit code
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        PrintWriter outWriter = new PrintWriter(out, true, StandardCharsets.UTF_8);
        PrintWriter errWriter = new PrintWriter(err, true, StandardCharsets.UTF_8);
        CommandLine cmd = new CommandLine(new ZkGroupsCommand());
        cmd.setOut(outWriter);
        cmd.setErr(errWriter);
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        cmd.setParameterExceptionHandler((ex, args1) -> {
            CommandLine failed = ex.getCommandLine();
            errWriter.println("zkgroups: " + ex.getMessage());
            errWriter.println("Try '" + failed.getCommandSpec().qualifiedName() + " --help' for usage.");
            errWriter.flush();
            return ExitCode.USAGE.code();
        });
        cmd.setExecutionExceptionHandler((ex, failed, parseResult) -> {
            CliException cli = Errors.translate(ex);
            errWriter.println("zkgroups: " + cli.getMessage());
            if (verbose(parseResult)) {
                ex.printStackTrace(errWriter);
            }
            errWriter.flush();
            return cli.exitCode().code();
        });
        try {
            return cmd.execute(args);
        } finally {
            outWriter.flush();
            errWriter.flush();
        }
    }

    private static boolean verbose(CommandLine.ParseResult result) {
        for (CommandLine.ParseResult r = result; r != null; r = r.subcommand()) {
            if (r.hasMatchedOption("--verbose")) {
                return true;
            }
        }
        return false;
    }
}
