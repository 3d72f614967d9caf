package io.zkgroups.registry.codec;

import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.PartitionState;
import io.zkgroups.registry.model.TopicRegistration;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** Every valid model value survives encode → decode, and every encoding is readable by a 0.8.2.2 parser. */
class CodecRoundTripTest {

    @Provide
    Arbitrary<MemberRegistration> registrations() {
        return CodecArbitraries.registrations();
    }

    @Provide
    Arbitrary<BrokerInfo> brokers() {
        return CodecArbitraries.brokers();
    }

    @Provide
    Arbitrary<TopicRegistration> topics() {
        return CodecArbitraries.topicRegistrations();
    }

    @Provide
    Arbitrary<PartitionState> states() {
        return CodecArbitraries.partitionStates();
    }

    @Provide
    Arbitrary<byte[]> jsonEncodings() {
        return Arbitraries.oneOf(
                CodecArbitraries.registrations().map(MemberRegistrationCodec::encode),
                CodecArbitraries.brokers().map(BrokerInfoCodec::encode),
                CodecArbitraries.topicRegistrations().map(TopicRegistrationCodec::encode),
                CodecArbitraries.partitionStates().map(PartitionStateCodec::encode));
    }

    @Property
    void memberRegistrationRoundTrips(@ForAll("registrations") MemberRegistration registration) throws DecodeException {
        MemberRegistration decoded = MemberRegistrationCodec.decode(MemberRegistrationCodec.encode(registration));

        assertThat(decoded).isEqualTo(registration);
        assertThat(new ArrayList<>(decoded.capabilities().entrySet()))
                .containsExactlyElementsOf(registration.capabilities().entrySet());
    }

    @Property
    void brokerRoundTrips(@ForAll("brokers") BrokerInfo broker) throws DecodeException {
        assertThat(BrokerInfoCodec.decode(broker.id(), BrokerInfoCodec.encode(broker))).isEqualTo(broker);
    }

    @Property
    void topicRegistrationRoundTrips(@ForAll("topics") TopicRegistration topic) throws DecodeException {
        assertThat(TopicRegistrationCodec.decode(TopicRegistrationCodec.encode(topic))).isEqualTo(topic);
    }

    @Property
    void partitionStateRoundTrips(@ForAll("states") PartitionState state) throws DecodeException {
        assertThat(PartitionStateCodec.decode(PartitionStateCodec.encode(state))).isEqualTo(state);
    }

    @Property
    void offsetRoundTripsAsPlainDecimal(@ForAll long offset) throws DecodeException {
        byte[] encoded = OffsetCodec.encode(offset);

        assertThat(new String(encoded, StandardCharsets.US_ASCII)).matches("-?[0-9]+");
        assertThat(OffsetCodec.decode(encoded)).isEqualTo(offset);
    }

    @Property
    void everyNumberOfEveryJsonEncodingFitsInt32(@ForAll("jsonEncodings") byte[] encoded) {
        String json = new String(encoded, StandardCharsets.UTF_8);

        assertThat(JsonNumbers.numbersOutsideStrings(json))
                .as("numbers of %s", json)
                .allSatisfy(number -> assertThat(JsonNumbers.isInt32(number)).as(number).isTrue());
    }

    @Property
    void jsonEncodingsAreValidUtf8WithoutRawControlCharacters(@ForAll("jsonEncodings") byte[] encoded) {
        String json = new String(encoded, StandardCharsets.UTF_8);

        assertThat(json.getBytes(StandardCharsets.UTF_8)).as("valid UTF-8: %s", json).isEqualTo(encoded);
        assertThat(json.chars().filter(c -> c <= 0x1f || (c >= 0x7f && c <= 0x9f))).as(json).isEmpty();
    }
}
