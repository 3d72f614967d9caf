package io.zkgroups.registry.codec;

import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.PartitionState;
import io.zkgroups.registry.model.TopicRegistration;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Whatever bytes a znode holds, every decoder returns a value or throws {@link DecodeException}, never
 * anything else; and whatever it returns can be used and written back.
 */
class CodecRobustnessTest {

    @FunctionalInterface
    private interface Decoder {
        void decodeAndUse(byte[] data) throws DecodeException;
    }

    private record NamedDecoder(String name, Decoder decoder) {
    }

    private static final List<String> SOME_TOPICS = List.of("T1", "T2", "orders", "__consumer_offsets", "a.b-c_d");

    private static final List<NamedDecoder> DECODERS = List.of(
            new NamedDecoder("BrokerInfoCodec.decode", data -> {
                BrokerInfo broker = BrokerInfoCodec.decode(42, data);
                broker.plaintextAddress();
                broker.endpoints().forEach(BrokerInfo.Endpoint::address);
                broker.toString();
                if (broker.hasPlaintextEndpoint()) {
                    BrokerInfoCodec.encode(broker);
                }
            }),
            new NamedDecoder("TopicRegistrationCodec.decode", data -> {
                TopicRegistration topic = TopicRegistrationCodec.decode(data);
                topic.partitions();
                topic.toString();
                TopicRegistrationCodec.encode(topic);
            }),
            new NamedDecoder("PartitionStateCodec.decode", data -> {
                PartitionState state = PartitionStateCodec.decode(data);
                state.hasLeader();
                PartitionStateCodec.encode(state);
            }),
            new NamedDecoder("MemberRegistrationCodec.decode", data -> {
                MemberRegistration registration = MemberRegistrationCodec.decode(data);
                registration.subscription().topicStreams(SOME_TOPICS, true);
                registration.toString();
                MemberRegistrationCodec.encode(registration);
            }),
            new NamedDecoder("OffsetCodec.decode", OffsetCodec::decode));

    /** Runs every decoder; fails with the input shown if one throws anything but a DecodeException. */
    static void everyDecoderReturnsOrRejects(byte[] input) {
        for (NamedDecoder decoder : DECODERS) {
            try {
                decoder.decoder().decodeAndUse(input);
            } catch (DecodeException expected) {
                // the one way to say "not a valid encoding"
            } catch (Throwable unexpected) {
                throw new AssertionError(decoder.name() + " threw " + unexpected + " instead of DecodeException for input "
                        + CodecArbitraries.show(input), unexpected);
            }
        }
    }

    @Provide
    Arbitrary<byte[]> arbitraryBytes() {
        return CodecArbitraries.bytes();
    }

    @Provide
    Arbitrary<byte[]> arbitraryStrings() {
        return CodecArbitraries.encodedStrings();
    }

    @Provide
    Arbitrary<String> jsonish() {
        return CodecArbitraries.jsonish();
    }

    @Provide
    Arbitrary<String> shapedObjects() {
        return CodecArbitraries.shapedObjects();
    }

    @Provide
    Arbitrary<byte[]> mutatedEncodings() {
        return CodecArbitraries.mutatedEncodings();
    }

    @Provide
    Arbitrary<byte[]> validEncodings() {
        return CodecArbitraries.validEncodings();
    }

    @Property
    void arbitraryBytesDecodeOrAreRejected(@ForAll("arbitraryBytes") byte[] input) {
        everyDecoderReturnsOrRejects(input);
    }

    @Property
    void arbitraryTextInAnyCharsetDecodesOrIsRejected(@ForAll("arbitraryStrings") byte[] input) {
        everyDecoderReturnsOrRejects(input);
    }

    @Property
    void jsonIshStructuresDecodeOrAreRejected(@ForAll("jsonish") String input) {
        everyDecoderReturnsOrRejects(input.getBytes(StandardCharsets.UTF_8));
    }

    @Property
    void objectsShapedForTheDecodersDecodeOrAreRejected(@ForAll("shapedObjects") String input) {
        everyDecoderReturnsOrRejects(input.getBytes(StandardCharsets.UTF_8));
    }

    @Property
    void mutatedValidEncodingsDecodeOrAreRejected(@ForAll("mutatedEncodings") byte[] input) {
        everyDecoderReturnsOrRejects(input);
    }

    @Property(tries = 300)
    void validEncodingsOfOneKindDecodeOrAreRejectedByEveryOtherDecoder(@ForAll("validEncodings") byte[] input) {
        everyDecoderReturnsOrRejects(input);
    }

    @Example
    void edgeInputsDecodeOrAreRejected() {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        String deepObject = "{\"a\":".repeat(5_000) + "1" + "}".repeat(5_000);
        String hugeNumber = "{\"leader\":" + "9".repeat(100_000) + ",\"port\":" + "9".repeat(100_000) + "}";
        String hugeString = "{\"host\":\"" + "h".repeat(2_000_000) + "\",\"port\":1}";
        String deepRegex = "{\"pattern\":\"white_list\",\"subscription\":{\"" + "(".repeat(20_000) + ")".repeat(20_000)
                + "\":1}}";
        String longKey = "{\"pattern\":\"static\",\"subscription\":{\"" + "t".repeat(100_000) + "\":1}}";
        for (String text : new String[] {deep, deepObject, longKey, hugeNumber, hugeString, deepRegex, "", " ", "\ufeff{}",
                "{\"a\":1}{\"b\":2}", "{\"host\":\"h\",\"port\":1,\"host\":\"i\"}", "\u0000", "{\"leader\":1e400}",
                "{\"leader\":-0}", "{\"leader\":0.0}", "{\"host\":\"h\",\"port\":9092,\"endpoints\":[\"A://[]:1\",\"B://[:1\"]}"}) {
            everyDecoderReturnsOrRejects(text.getBytes(StandardCharsets.UTF_8));
        }
        everyDecoderReturnsOrRejects(null);
        everyDecoderReturnsOrRejects(new byte[0]);
        everyDecoderReturnsOrRejects(new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf});
        everyDecoderReturnsOrRejects(new byte[] {0, 0, (byte) 0xfe, (byte) 0xff, 0, 0, 0, '{'});
        everyDecoderReturnsOrRejects(new byte[] {'{', '"', (byte) 0xc3, '"', ':', '1', '}'});
    }
}
