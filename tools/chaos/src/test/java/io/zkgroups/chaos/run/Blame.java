package io.zkgroups.chaos.run;

import io.zkgroups.chaos.monitor.Verdict;
import io.zkgroups.chaos.monitor.Violation;

import java.util.List;

/** Who a run's violations are blamed on: a broken-member run must blame its broken process and no other. */
final class Blame {

    private Blame() {
    }

    /** The violations that name a process other than {@code culprit} ("-": none named, e.g. a stall). */
    static List<Violation> onOthersThan(Verdict verdict, String culprit) {
        return verdict.violations().stream().filter(v -> !v.process().equals("-") && !v.process().equals(culprit))
                .toList();
    }
}
