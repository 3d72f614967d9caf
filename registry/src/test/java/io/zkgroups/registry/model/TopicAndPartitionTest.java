package io.zkgroups.registry.model;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** TopicAndPartition text and the round-robin sort key, docs/compatibility.md#identifier-vectors. */
class TopicAndPartitionTest {

    @Test
    void textIsBracketedTopicCommaPartitionWithoutSpace() {
        assertThat(TopicAndPartition.of("orders", 10)).hasToString("[orders,10]");
    }

    @ParameterizedTest(name = "[{0},{1}] -> {2}")
    @CsvSource({
            "orders, 10, 458862962",
            "orders, 0, -1093576615",
            "orders, 9, -1093576336",
            "orders, 11, 458862993",
            "clicks, 0, 1627908499",
            "clicks, 3, 1627908592",
            "T1, 0, -1610635167",
            "T2, 0, -1610605376",
            "A, 0, 86020691",
            "B, 0, 86050482",
            "Y, 0, 86735675",
    })
    void roundRobinSortKeyIsTheHashCodeOfTheTextAs082ComputesIt(String topic, int partition, int expectedHash) {
        assertThat(TopicAndPartition.of(topic, partition).toString().hashCode()).isEqualTo(expectedHash);
    }

    @Test
    void naturalOrderIsTopicThenNumericPartition() {
        assertThat(TopicAndPartition.of("A", 2)).isLessThan(TopicAndPartition.of("A", 10));
        assertThat(TopicAndPartition.of("A", 10)).isLessThan(TopicAndPartition.of("B", 0));
    }

    @Test
    void partitionIsNonNegativeAndTopicPresent() {
        assertThatThrownBy(() -> TopicAndPartition.of("orders", -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("orders")
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> TopicAndPartition.of(null, 0)).isInstanceOf(NullPointerException.class);
    }

    @net.jqwik.api.Property(tries = 1_000)
    void ordersByTopicThenPartition(@net.jqwik.api.ForAll("topics") String a, @net.jqwik.api.ForAll @net.jqwik.api.constraints.IntRange(max = 20) int m,
                                    @net.jqwik.api.ForAll("topics") String b, @net.jqwik.api.ForAll @net.jqwik.api.constraints.IntRange(max = 20) int n) {
        int expected = a.equals(b) ? Integer.compare(m, n) : a.compareTo(b);

        assertThat(Integer.signum(TopicAndPartition.of(a, m).compareTo(TopicAndPartition.of(b, n))))
                .isEqualTo(Integer.signum(expected));
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<String> topics() {
        return net.jqwik.api.Arbitraries.strings().withChars("ab_1").ofMinLength(1).ofMaxLength(3);
    }
}
