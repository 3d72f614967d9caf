package io.zkgroups.registry.codec;

import io.zkgroups.registry.model.TopicRegistration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

/** Topic registrations {@code /brokers/topics/T}, docs/compatibility.md#broker-and-topic-registrations. */
class TopicRegistrationCodecTest {

    private static final String V1 = "{\"version\":1,\"partitions\":{\"0\":[1,2],\"1\":[2,3]}}";

    private static TopicRegistration decode(String json) throws DecodeException {
        return TopicRegistrationCodec.decode(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void v1IsWrittenByteForByteLike082AdminUtils() {
        TreeMap<Integer, List<Integer>> replicas = new TreeMap<>(Map.of(0, List.of(1, 2), 1, List.of(2, 3)));

        byte[] encoded = TopicRegistrationCodec.encode(new TopicRegistration(1, replicas, Optional.empty()));

        assertThat(new String(encoded, StandardCharsets.UTF_8)).isEqualTo(V1);
    }

    @Test
    void v1Decodes() throws DecodeException {
        TopicRegistration topic = decode(V1);

        assertThat(topic.version()).isEqualTo(1);
        assertThat(topic.partitions()).containsExactly(0, 1);
        assertThat(topic.replicaMap()).containsExactly(entry(0, List.of(1, 2)), entry(1, List.of(2, 3)));
        assertThat(topic.topicId()).isEmpty();
    }

    @Test
    void partitionsAreSortedNumericallyWhateverTheKeyOrder() throws DecodeException {
        TopicRegistration topic = decode("{\"version\":1,\"partitions\":{\"10\":[1],\"2\":[1],\"0\":[1],\"1\":[1]}}");

        assertThat(topic.partitions()).containsExactly(0, 1, 2, 10);
    }

    @Test
    void partitionsAreWrittenInNumericOrder() {
        TreeMap<Integer, List<Integer>> replicas = new TreeMap<>();
        for (int p = 11; p >= 0; p--) {
            replicas.put(p, List.of(p));
        }

        String json = new String(TopicRegistrationCodec.encode(new TopicRegistration(1, replicas, Optional.empty())),
                StandardCharsets.UTF_8);

        assertThat(json).startsWith("{\"version\":1,\"partitions\":{\"0\":[0],\"1\":[1],\"2\":[2],")
                .endsWith("\"10\":[10],\"11\":[11]}}");
    }

    @Test
    void v2WithReassignmentAndTopicIdDecodesKeepingTheTopicId() throws DecodeException {
        TopicRegistration topic = decode("{\"version\":2,\"partitions\":{\"0\":[1,2,3],\"1\":[2,3]},"
                + "\"adding_replicas\":{\"0\":[3]},\"removing_replicas\":{\"0\":[1]},"
                + "\"topic_id\":\"sB4MoeMnTWqTw2WdLVt7yw\"}");

        assertThat(topic.version()).isEqualTo(2);
        assertThat(topic.replicaMap()).containsExactly(entry(0, List.of(1, 2, 3)), entry(1, List.of(2, 3)));
        assertThat(topic.topicId()).contains("sB4MoeMnTWqTw2WdLVt7yw");
    }

    @Test
    void v2WithoutTopicIdDecodes() throws DecodeException {
        TopicRegistration topic = decode("{\"version\":2,\"partitions\":{\"0\":[1]},\"adding_replicas\":{},\"removing_replicas\":{}}");

        assertThat(topic.partitions()).containsExactly(0);
        assertThat(topic.topicId()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"{}", "{\"version\":1}", "{\"version\":1,\"partitions\":null}", "{\"version\":1,\"partitions\":{}}"})
    void aRegistrationWithoutPartitionsIsATopicWithNoPartitions(String json) throws DecodeException {
        assertThat(decode(json).partitions()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"partitions\":[]}",
            "{\"partitions\":{\"007\":[1]}}",
            "{\"partitions\":{\"-1\":[1]}}",
            "{\"partitions\":{\"x\":[1]}}",
            "{\"partitions\":{\"0\":[1.5]}}",
            "{\"partitions\":{\"0\":[2147483648]}}",
            "{\"partitions\":{\"0\":[\"1\"]}}",
            "{\"partitions\":{\"0\":1}}",
            "{\"partitions\":{\"0\":[null]}}",
            "{\"version\":\"1\",\"partitions\":{}}",
            "{\"partitions\":{},\"topic_id\":5}",
            "not json",
            "[]",
    })
    void malformedRegistrationsAreRejected(String json) {
        assertThatThrownBy(() -> decode(json)).isInstanceOf(DecodeException.class);
    }

    @Test
    void encodingIsV1EvenForAV2Registration() throws DecodeException {
        TopicRegistration v2 = decode("{\"version\":2,\"partitions\":{\"0\":[1]},\"topic_id\":\"sB4MoeMnTWqTw2WdLVt7yw\"}");

        assertThat(new String(TopicRegistrationCodec.encode(v2), StandardCharsets.UTF_8))
                .isEqualTo("{\"version\":1,\"partitions\":{\"0\":[1]}}");
    }
}
