package io.zkgroups.registry.model;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Consumer thread ids, docs/compatibility.md#thread-ids, docs/compatibility.md#owner-znodes and the thread id rows of
 * docs/compatibility.md#identifier-vectors.
 */
class ThreadIdTest {

    @Test
    void threadIdsSortLexicographicallySoTenComesBeforeTwo() {
        ConsumerId c = new ConsumerId("c");
        List<ThreadId> threads = new ArrayList<>();
        for (int n = 11; n >= 0; n--) {
            threads.add(c.thread(n));
        }

        Collections.sort(threads);

        assertThat(threads).extracting(ThreadId::toString).containsExactly(
                "c-0", "c-1", "c-10", "c-11", "c-2", "c-3", "c-4", "c-5", "c-6", "c-7", "c-8", "c-9");
    }

    @Test
    void threadIdsOfDifferentConsumersSortByTheirText() {
        List<ThreadId> threads = new ArrayList<>(List.of(
                new ConsumerId("c9").thread(0), new ConsumerId("c2").thread(0), new ConsumerId("c10").thread(0),
                new ConsumerId("g_b").thread(0), new ConsumerId("g_a").thread(1), new ConsumerId("g_a").thread(0)));

        Collections.sort(threads);

        assertThat(threads).extracting(ThreadId::toString)
                .containsExactly("c10-0", "c2-0", "c9-0", "g_a-0", "g_a-1", "g_b-0");
    }

    @Test
    void ownerValueParsesToTheConsumerIdBeforeTheLastDash() {
        ThreadId parsed = ThreadId.parse("g_host-1-abc12345-3").orElseThrow();

        assertThat(parsed.consumer().value()).isEqualTo("g_host-1-abc12345");
        assertThat(parsed.thread()).isEqualTo(3);
        assertThat(parsed).hasToString("g_host-1-abc12345-3");
    }

    @Test
    void observedOwnerValueParses() {
        assertThat(ThreadId.parse("glive_c2-1")).contains(new ConsumerId("glive_c2").thread(1));
    }

    @Test
    void textThatIsNotCidDashNumberDoesNotParse() {
        for (String text : new String[] {null, "", "-", "-1", "c-", "c", "c-x", "c-1a", "c- 1", "c-+1",
                "c-9999999999", "a/b-1", ".-1", "..-1"}) {
            assertThat(ThreadId.parse(text)).as("parse(%s)", text).isEmpty();
        }
    }

    @Test
    void threadIndexIsNonNegative() {
        assertThatThrownBy(() -> new ConsumerId("c").thread(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }

    /** compareTo avoids building the texts; it must order exactly as comparing them would. */
    @net.jqwik.api.Property(tries = 2_000)
    void ordersExactlyLikeItsText(@net.jqwik.api.ForAll("ids") String a, @net.jqwik.api.ForAll @net.jqwik.api.constraints.IntRange(max = 12_000) int m,
                                  @net.jqwik.api.ForAll("ids") String b, @net.jqwik.api.ForAll @net.jqwik.api.constraints.IntRange(max = 12_000) int n) {
        ThreadId x = new ConsumerId(a).thread(m);
        ThreadId y = new ConsumerId(b).thread(n);

        assertThat(Integer.signum(x.compareTo(y))).as("%s vs %s", x, y)
                .isEqualTo(Integer.signum(x.toString().compareTo(y.toString())));
    }

    /** Short ids over a small alphabet with dashes and digits, so that one is often a prefix of the other. */
    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<String> ids() {
        return net.jqwik.api.Arbitraries.strings().withChars("c-019").ofMinLength(1).ofMaxLength(4)
                .filter(id -> !id.equals(".") && !id.equals(".."));
    }
}
