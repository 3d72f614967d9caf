package io.zkgroups.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProcStatTest {

    @Test
    void theCpuTimeIsUserPlusSystemTicksAfterTheLastParenthesisOfTheName() {
        // a thread name may hold spaces and parentheses: the fields count from the last ')'
        String stat = "4242 (C2 (x) Compiler) S 1 4242 4242 0 -1 4194304 100 0 0 0 250 30 0 0 20 0 35 0 1000 0 0";

        assertThat(ProcStat.cpuMillis(stat)).isEqualTo(2_800); // (250 + 30) ticks of 10 ms
    }
}
