package io.zkgroups.tool.health;

import io.zkgroups.tool.ExitCode;

/** The conditions {@code health} checks, in the order their exit codes take precedence. */
public enum HealthCondition {
    UNREADABLE(ExitCode.HEALTH_UNREADABLE),
    MEMBERS(ExitCode.HEALTH_MEMBERS),
    ASSIGNOR_REFUSED(ExitCode.HEALTH_ASSIGNOR_REFUSED),
    UNOWNED(ExitCode.HEALTH_UNOWNED),
    FOREIGN_OWNER(ExitCode.HEALTH_FOREIGN_OWNER),
    ASSIGNMENT(ExitCode.HEALTH_ASSIGNMENT),
    MEMBER_ALARMS(ExitCode.HEALTH_MEMBER_ALARMS),
    STORES(ExitCode.HEALTH_STORES),
    STALLED(ExitCode.HEALTH_STALLED);

    private final ExitCode exitCode;

    HealthCondition(ExitCode exitCode) {
        this.exitCode = exitCode;
    }

    public ExitCode exitCode() {
        return exitCode;
    }

    /** Lower-case name with dashes, for output. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
