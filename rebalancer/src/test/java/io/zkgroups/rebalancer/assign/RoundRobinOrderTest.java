package io.zkgroups.rebalancer.assign;

import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatNoException;

class RoundRobinOrderTest {

    /** docs/compatibility.md#identifier-vectors, computed by the real 0.8.2.2 classes. */
    @ParameterizedTest(name = "{0} hashes to {1}")
    @CsvSource(delimiter = ';', value = {
            "orders;10;458862962", "orders;0;-1093576615", "orders;9;-1093576336", "orders;11;458862993",
            "clicks;0;1627908499", "clicks;3;1627908592", "T1;0;-1610635167", "T2;0;-1610605376",
            "A;0;86020691", "B;0;86050482", "Y;0;86735675"})
    void sortKeyIsTheJavaHashCodeOfThe082Text(String topic, int partition, int expectedKey) {
        assertThat(RoundRobinOrder.sortKey(TopicAndPartition.of(topic, partition))).isEqualTo(expectedKey);
    }

    @Test
    void sortsBySignedHashSoTheTenthPartitionOfOrdersLeapsBehindTheFirstTen() {
        List<TopicAndPartition> input = Stream.concat(partitions("clicks", 4).stream(),
                partitions("orders", 12).stream()).toList();

        assertThat(RoundRobinOrder.sorted(input)).containsExactlyElementsOf(
                Stream.concat(partitions("orders", 12).stream(), partitions("clicks", 4).stream()).toList());
    }

    @Test
    void partitionsOfOneTopicWithEqualHashesKeepAscendingOrderAndAreNotAmbiguous() {
        // Found by search: "[nuhibt,0]" and "[nuhibt,13]" have the same String.hashCode.
        TopicAndPartition zero = TopicAndPartition.of("nuhibt", 0);
        TopicAndPartition thirteen = TopicAndPartition.of("nuhibt", 13);
        assertThat(RoundRobinOrder.sortKey(zero)).isEqualTo(RoundRobinOrder.sortKey(thirteen)).isEqualTo(1002159044);

        List<TopicAndPartition> sorted = RoundRobinOrder.sorted(partitions("nuhibt", 14));

        assertThat(sorted.indexOf(thirteen)).isEqualTo(sorted.indexOf(zero) + 1);
        assertThatNoException().isThrownBy(() -> RoundRobinOrder.requireUnambiguous(sorted, 5));
    }

    @Test
    void aCrossTopicCollisionIsAmbiguousUnlessEveryTopicsShareIsAMultipleOfTheThreads() {
        // "Aa" and "BB" have the same String.hashCode, so "[Aa,P]" and "[BB,P]" collide for every P.
        List<TopicAndPartition> sorted = RoundRobinOrder.sorted(
                Stream.concat(partitions("Aa", 2).stream(), partitions("BB", 2).stream()).toList());

        assertThatNoException().isThrownBy(() -> RoundRobinOrder.requireUnambiguous(sorted, 1));
        assertThatThrownBy(() -> RoundRobinOrder.requireUnambiguous(sorted, 2))
                .isInstanceOfSatisfying(AmbiguousAssignmentException.class, refused ->
                        assertThat(refused.ambiguousTies()).containsExactly(
                                List.of(TopicAndPartition.of("Aa", 0), TopicAndPartition.of("BB", 0)),
                                List.of(TopicAndPartition.of("Aa", 1), TopicAndPartition.of("BB", 1))));
    }

    @Test
    void ownersOfATieDependOnTopicOrderOnlyAcrossTopicsWithSharesNotDividedByTheThreads() {
        List<TopicAndPartition> twoAndTwo = List.of(TopicAndPartition.of("t", 0), TopicAndPartition.of("t", 13),
                TopicAndPartition.of("u", 0), TopicAndPartition.of("u", 13));

        assertThat(RoundRobinOrder.ownersDependOnTopicOrder(twoAndTwo, 1)).isFalse();
        assertThat(RoundRobinOrder.ownersDependOnTopicOrder(twoAndTwo, 2)).isFalse();
        assertThat(RoundRobinOrder.ownersDependOnTopicOrder(twoAndTwo, 3)).isTrue();
        assertThat(RoundRobinOrder.ownersDependOnTopicOrder(twoAndTwo.subList(0, 2), 3)).isFalse();
    }

    private static List<TopicAndPartition> partitions(String topic, int count) {
        return IntStream.range(0, count).mapToObj(p -> TopicAndPartition.of(topic, p)).toList();
    }
}
