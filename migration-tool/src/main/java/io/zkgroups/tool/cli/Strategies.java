package io.zkgroups.tool.cli;

import io.zkgroups.rebalancer.assign.Assignors;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;

import java.util.Iterator;

/** Validation and help candidates of {@code --strategy}: the assignors registered in {@link Assignors}. */
final class Strategies {

    private Strategies() {
    }

    static void validate(String strategy) {
        if (strategy != null && Assignors.find(strategy) == null) {
            throw new CliException(ExitCode.USAGE, "--strategy must be " + Assignors.namesJoined(" or ") + ", got '"
                    + strategy + "'");
        }
    }

    /** The names for {@code ${COMPLETION-CANDIDATES}} in help texts, read when the help is shown. */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return Assignors.names().iterator();
        }
    }
}
