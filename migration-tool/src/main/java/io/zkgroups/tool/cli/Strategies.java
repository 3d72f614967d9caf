package io.zkgroups.tool.cli;

import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;

/** Validation of {@code --strategy}. */
final class Strategies {

    private Strategies() {
    }

    static void validate(String strategy) {
        if (strategy != null && !strategy.equals(PartitionAssignor.RANGE) && !strategy.equals(PartitionAssignor.ROUND_ROBIN)
                && !strategy.equals(PartitionAssignor.STICKY)) {
            throw new CliException(ExitCode.USAGE, "--strategy must be range, roundrobin or sticky, got '" + strategy + "'");
        }
    }
}
