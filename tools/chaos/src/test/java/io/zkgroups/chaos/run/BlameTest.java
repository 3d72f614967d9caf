package io.zkgroups.chaos.run;

import io.zkgroups.chaos.monitor.Verdict;
import io.zkgroups.chaos.monitor.Violation;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class BlameTest {

    private static Verdict verdictOf(Violation... violations) {
        return new Verdict(0, 0, 0, 0, Map.of(), Map.of(), List.of(violations), List.of(), List.of());
    }

    @Test
    void aViolationOfTheCorrectMemberIsReported() {
        Violation byCorrect = new Violation("duplicate", 0, 5, "m1-1", 10, "handed out again");

        assertThat(Blame.onOthersThan(verdictOf(new Violation("exclusivity", 0, 4, "m0-1", 9, "overlap"), byCorrect,
                new Violation("stall", 1, -1, "-", 11, "no hand-out")), "m0-1")).containsExactly(byCorrect);
    }

    @Test
    void violationsOfTheCulpritOnlyOrOfNoProcessPass() {
        assertThat(Blame.onOthersThan(verdictOf(new Violation("exclusivity", 0, 4, "m0-1", 9, "overlap"),
                new Violation("stall", 1, -1, "-", 11, "no hand-out")), "m0-1")).isEmpty();
    }
}
