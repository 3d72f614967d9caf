package io.zkgroups.registry;

import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The znode layout of docs/compatibility.md#znode-layout, at the root and below a chroot. */
class ZkLayoutTest {

    private static final ConsumerId C1 = ConsumerId.ofOverride("glive", "c1");

    /** Every path of docs/compatibility.md#znode-layout the layout builds, relative to the chroot. */
    private static Map<String, String> everyPath(ZkLayout layout) {
        Map<String, String> paths = new LinkedHashMap<>();
        paths.put(layout.brokers(), "/brokers");
        paths.put(layout.brokerIds(), "/brokers/ids");
        paths.put(layout.broker(3), "/brokers/ids/3");
        paths.put(layout.broker(0), "/brokers/ids/0");
        paths.put(layout.topics(), "/brokers/topics");
        paths.put(layout.topic("T1"), "/brokers/topics/T1");
        paths.put(layout.topicPartitions("T1"), "/brokers/topics/T1/partitions");
        paths.put(layout.partitionState("T1", 0), "/brokers/topics/T1/partitions/0/state");
        paths.put(layout.partitionState("orders", 10), "/brokers/topics/orders/partitions/10/state");
        paths.put(layout.consumers(), "/consumers");
        paths.put(layout.group("glive"), "/consumers/glive");
        paths.put(layout.memberIds("glive"), "/consumers/glive/ids");
        paths.put(layout.member("glive", C1), "/consumers/glive/ids/glive_c1");
        paths.put(layout.owners("glive"), "/consumers/glive/owners");
        paths.put(layout.owners("glive", "T1"), "/consumers/glive/owners/T1");
        paths.put(layout.owner("glive", TopicAndPartition.of("T1", 0)), "/consumers/glive/owners/T1/0");
        paths.put(layout.owner("glive", TopicAndPartition.of("T2", 6)), "/consumers/glive/owners/T2/6");
        paths.put(layout.offsets("glive"), "/consumers/glive/offsets");
        paths.put(layout.offsets("glive", "T1"), "/consumers/glive/offsets/T1");
        paths.put(layout.offset("glive", TopicAndPartition.of("T1", 12)), "/consumers/glive/offsets/T1/12");
        return paths;
    }

    @Test
    void everyPathAtTheRootIsExactlyThe082Path() {
        everyPath(ZkLayout.root()).forEach((actual, expected) -> assertThat(actual).isEqualTo(expected));
        assertThat(ZkLayout.root().chroot()).isEmpty();
    }

    @Test
    void everyPathBelowAChrootIsTheChrootFollowedByThe082Path() {
        everyPath(ZkLayout.withChroot("/kafka")).forEach((actual, expected) ->
                assertThat(actual).isEqualTo("/kafka" + expected));
        assertThat(ZkLayout.withChroot("/kafka").chroot()).isEqualTo("/kafka");
    }

    @Test
    void multiSegmentChrootIsPrefixedWhole() {
        assertThat(ZkLayout.withChroot("/prod/kafka-08.a_b").member("glive", C1))
                .isEqualTo("/prod/kafka-08.a_b/consumers/glive/ids/glive_c1");
    }

    @Test
    void emptyOrSlashChrootIsTheRoot() {
        assertThat(ZkLayout.withChroot("")).isSameAs(ZkLayout.root());
        assertThat(ZkLayout.withChroot("/")).isSameAs(ZkLayout.root());
        assertThat(ZkLayout.root()).hasToString("ZkLayout[/]");
        assertThat(ZkLayout.withChroot("/kafka")).hasToString("ZkLayout[/kafka]");
    }

    @ParameterizedTest
    @ValueSource(strings = {"kafka", "/kafka/", "//kafka", "/a//b", "/.", "/..", "/a/../b", "/ka fka", "/käfka", "/a/./b"})
    void invalidChrootIsRejectedWithAMessageNamingIt(String chroot) {
        assertThatThrownBy(() -> ZkLayout.withChroot(chroot))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chroot");
    }

    @Test
    void invalidChrootShapeMessageContainsTheChroot() {
        assertThatThrownBy(() -> ZkLayout.withChroot("kafka"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'kafka'");
        assertThatThrownBy(() -> ZkLayout.withChroot("/ka fka"))
                .isInstanceOf(ZkNames.InvalidNameException.class)
                .hasMessageContaining("ka fka");
        assertThatThrownBy(() -> ZkLayout.withChroot(null)).isInstanceOf(NullPointerException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "a/b", "a b", "tópico", "日本", "../../brokers"})
    void invalidTopicOrGroupNeverBecomesAPathSegment(String bad) {
        ZkLayout layout = ZkLayout.withChroot("/kafka");
        Map<String, Executable> uses = new LinkedHashMap<>();
        uses.put("topic", () -> layout.topic(bad));
        uses.put("topicPartitions", () -> layout.topicPartitions(bad));
        uses.put("partitionState", () -> layout.partitionState(bad, 0));
        uses.put("group", () -> layout.group(bad));
        uses.put("memberIds", () -> layout.memberIds(bad));
        uses.put("member", () -> layout.member(bad, C1));
        uses.put("owners(group)", () -> layout.owners(bad));
        uses.put("owners(topic)", () -> layout.owners("glive", bad));
        uses.put("owner", () -> layout.owner("glive", TopicAndPartition.of(bad, 0)));
        uses.put("offsets(group)", () -> layout.offsets(bad));
        uses.put("offsets(topic)", () -> layout.offsets("glive", bad));
        uses.put("offset", () -> layout.offset("glive", TopicAndPartition.of(bad, 0)));

        uses.forEach((name, use) -> assertThatThrownBy(use::execute)
                .as(name)
                .isInstanceOf(ZkNames.InvalidNameException.class)
                .hasMessageContaining("'" + bad + "'"));
    }

    @Test
    void nameOf256CharactersIsRejectedAndOf255Accepted() {
        ZkLayout layout = ZkLayout.root();
        String longest = "t".repeat(255);

        assertThat(layout.topic(longest)).isEqualTo("/brokers/topics/" + longest);
        assertThatThrownBy(() -> layout.topic(longest + "t"))
                .isInstanceOf(ZkNames.InvalidNameException.class)
                .hasMessageContaining(longest + "t");
        assertThatThrownBy(() -> layout.group("g".repeat(256)))
                .isInstanceOf(ZkNames.InvalidNameException.class)
                .hasMessageContaining("g".repeat(256));
    }

    @Test
    void negativeBrokerIdOrPartitionIsRejectedNamingTheValue() {
        ZkLayout layout = ZkLayout.root();

        assertThatThrownBy(() -> layout.broker(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> layout.partitionState("T1", -2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-2");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "1", "7", "10", "123", "2147483647"})
    void canonicalPartitionNamesParse(String name) {
        assertThat(ZkLayout.parsePartition(name)).isEqualTo(OptionalInt.of(Integer.parseInt(name)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "007", "00", "01", "-1", "-0", "+1", "2147483648", "9999999999", "99999999999",
            "abc", "1a", " 1", "1 ", "1.0", "1e3", "0x1", "\u0661", "\uff11"})
    void nonCanonicalPartitionNamesDoNotParse(String name) {
        assertThat(ZkLayout.parsePartition(name)).as("parsePartition(%s)", name).isEmpty();
    }

    @Test
    void missingPartitionNameDoesNotParse() {
        assertThat(ZkLayout.parsePartition(null)).isEmpty();
    }

    @Test
    void partitionPathSegmentsRoundTripThroughParsePartition() {
        Function<Integer, String> lastSegment = p -> {
            String path = ZkLayout.root().owner("g", TopicAndPartition.of("t", p));
            return path.substring(path.lastIndexOf('/') + 1);
        };
        for (int p : new int[] {0, 1, 9, 10, 99, 100, Integer.MAX_VALUE}) {
            assertThat(ZkLayout.parsePartition(lastSegment.apply(p))).hasValue(p);
        }
    }
}
