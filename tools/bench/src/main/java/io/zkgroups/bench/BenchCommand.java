package io.zkgroups.bench;

import picocli.CommandLine;

/**
 * The one parser of the benchmarks' command-line options (picocli): each main declares its options as an
 * {@code @Command} class; an unknown option, a missing value or a value of the wrong type is an error that names it,
 * followed by the usage, and exit code 2.
 */
final class BenchCommand {

    private BenchCommand() {
    }

    /** {@code options} filled from {@code args}; exits (0 after --help, 2 after bad usage) instead of returning. */
    static <T> T parse(T options, String[] args) {
        CommandLine line = new CommandLine(options);
        try {
            line.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            System.err.println(line.getCommandName() + ": " + e.getMessage());
            line.usage(System.err);
            System.exit(2);
        }
        if (line.isUsageHelpRequested()) {
            line.usage(System.out);
            System.exit(0);
        }
        return options;
    }

    /** {@code options} filled from {@code args}, or the {@link CommandLine.ParameterException} naming what is wrong. */
    static <T> T parseOrThrow(T options, String... args) {
        new CommandLine(options).parseArgs(args);
        return options;
    }
}
