package io.zkgroups.tool;

import java.util.Objects;

/**
 * A failure the user can act on: printed as one line on stderr (no stack trace unless {@code --verbose}),
 * and the command exits with {@link #exitCode()}.
 */
public class CliException extends RuntimeException {

    private static final long serialVersionUID = 1L;
    private final ExitCode exitCode;

    public CliException(ExitCode exitCode, String message) {
        this(exitCode, message, null);
    }

    public CliException(ExitCode exitCode, String message, Throwable cause) {
        super(Objects.requireNonNull(message, "message"), cause);
        this.exitCode = Objects.requireNonNull(exitCode, "exitCode");
    }

    public ExitCode exitCode() {
        return exitCode;
    }
}
