package io.zkgroups.registry.codec;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link TopicRegistrationCodec#partitionCount} counts without decoding, and must agree with
 * {@code decode(data).partitionCount()} on every input: the same count, or the same error.
 */
class TopicPartitionCountTest {

    /** The count, or the decode error's message, of each way. */
    private static String viaCount(byte[] data) {
        try {
            return "count " + TopicRegistrationCodec.partitionCount(data);
        } catch (DecodeException e) {
            return "error " + e.getMessage();
        }
    }

    private static String viaDecode(byte[] data) {
        try {
            return "count " + TopicRegistrationCodec.decode(data).partitionCount();
        } catch (DecodeException e) {
            return "error " + e.getMessage();
        }
    }

    private static void agree(byte[] data) {
        assertThat(viaCount(data)).as("partitionCount of %s", CodecArbitraries.show(data)).isEqualTo(viaDecode(data));
    }

    private static void agree(String json) {
        agree(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void countsWhatKafkaAnd082Write() {
        agree("{\"version\":1,\"partitions\":{\"0\":[1,2],\"1\":[2,3]}}");
        agree("{\"version\":2,\"partitions\":{\"2\":[1],\"0\":[2],\"1\":[3]},\"adding_replicas\":{},"
                + "\"removing_replicas\":{\"0\":[2]},\"topic_id\":\"kXr3mB2gT0uKmhJ1Qdc2yw\"}");
        agree("{\"version\":1}");
        agree("{\"version\":1,\"partitions\":null}");
        agree("{\"partitions\":{}}");
        assertThat(viaCount("{\"version\":1,\"partitions\":{\"0\":[1,2],\"1\":[2,3]}}".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("count 2");
    }

    @Test
    void leavesWhatIsNotPlainToTheDecoder() {
        List.of("{\"version\":1,\"partitions\":{\"0\":[1],\"0\":[2]}}", // a repeated partition
                "{\"partitions\":{\"0\":[1]},\"partitions\":{\"0\":[1],\"1\":[2]}}", // a repeated key: the last wins
                "{\"version\":1.0,\"partitions\":{\"0\":[1]}}",
                "{\"version\":\"1\",\"partitions\":{\"0\":[1]}}",
                "{\"version\":1,\"partitions\":{\"0\":[1.5]}}",
                "{\"version\":1,\"partitions\":{\"0\":[4294967296]}}",
                "{\"version\":1,\"partitions\":{\"0\":1}}",
                "{\"version\":1,\"partitions\":{\"01\":[1]}}",
                "{\"version\":1,\"partitions\":{\"-1\":[1]}}",
                "{\"version\":1,\"partitions\":{\"2147483647\":[1]}}", // past the streamed bitmap
                "{\"version\":1,\"partitions\":[0,1]}",
                "{\"version\":1,\"partitions\":{\"0\":[1]},\"topic_id\":7}",
                "{\"version\":1,\"partitions\":{\"0\":[1]}} trailing",
                "{\"version\":1,\"partitions\":{\"0\":[1]}",
                "[]", "null", "", "   ").forEach(TopicPartitionCountTest::agree);
        agree((byte[]) null);
    }

    @Test
    void countsTenThousandPartitions() {
        StringBuilder json = new StringBuilder("{\"version\":1,\"partitions\":{");
        for (int p = 9_999; p >= 0; p--) { // in any order, as Kafka writes them
            json.append('"').append(p).append("\":[").append(p % 3).append(',').append((p + 1) % 3).append(']');
            json.append(p > 0 ? "," : "}}");
        }
        assertThat(viaCount(json.toString().getBytes(StandardCharsets.UTF_8))).isEqualTo("count 10000");
    }

    @Property(tries = 2000)
    void agreesOnGeneratedRegistrations(@ForAll("topicRegistrations") byte[] data) {
        agree(data);
    }

    @Property(tries = 3000)
    void agreesOnMutatedOnes(@ForAll("mutatedTopicRegistrations") byte[] data) {
        agree(data);
    }

    @Property(tries = 1000)
    void agreesOnAnyEncodingAndNoise(@ForAll("anything") byte[] data) {
        agree(data);
    }

    @Provide
    Arbitrary<byte[]> topicRegistrations() {
        return CodecArbitraries.topicRegistrations().map(TopicRegistrationCodec::encode);
    }

    @Provide
    Arbitrary<byte[]> mutatedTopicRegistrations() {
        return Combinators.combine(topicRegistrations(), Arbitraries.longs())
                .as((bytes, seed) -> CodecArbitraries.mutate(bytes, new java.util.Random(seed)));
    }

    @Provide
    Arbitrary<byte[]> anything() {
        return Arbitraries.oneOf(CodecArbitraries.validEncodings(), CodecArbitraries.mutatedEncodings(),
                CodecArbitraries.bytes(), CodecArbitraries.jsonish().map(s -> s.getBytes(StandardCharsets.UTF_8)));
    }
}
