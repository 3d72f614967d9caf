package io.zkgroups.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Where the scale bench's joiner sorts among the members, which decides how many of them range moves. */
class ScaleHostNamesTest {

    @Test
    void unpaddedJoinerSortsNearTheFront() {
        assertThat(sortedPositionOfJoiner(1000, 0)).isEqualTo(4); // m1, m10, m100, m1000, then m1001
    }

    @Test
    void paddedJoinerSortsLast() {
        int members = 1000;
        int width = Integer.toString(members + 1).length();

        assertThat(ScaleHost.name("m", 7, width)).isEqualTo("m0007");
        assertThat(sortedPositionOfJoiner(members, width)).isEqualTo(members);
    }

    /** The index of member {@code n + 1} once members 1..n+1 are sorted by name, as ZooKeeper's ids sort. */
    private static int sortedPositionOfJoiner(int n, int width) {
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= n + 1; i++) {
            names.add(ScaleHost.name("m", i, width));
        }
        String joiner = names.get(n);
        names.sort(null);
        return names.indexOf(joiner);
    }
}
