package io.zkgroups.registry.codec;

import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.BrokerInfo.Endpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Broker registrations {@code /brokers/ids/N}, docs/compatibility.md#broker-and-topic-registrations: written as
 * 0.8.2.2, read from any broker.
 */
class BrokerInfoCodecTest {

    private static final String V1 =
            "{\"jmx_port\":9999,\"timestamp\":\"1795989019637\",\"host\":\"broker3.example.com\",\"version\":1,\"port\":9092}";

    private static BrokerInfo decode(int id, String json) throws DecodeException {
        return BrokerInfoCodec.decode(id, json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void v1IsWrittenByteForByteLikeA082Broker() {
        BrokerInfo broker = BrokerInfo.v1(3, "broker3.example.com", 9092, 9999, 1795989019637L);

        assertThat(new String(BrokerInfoCodec.encode(broker), StandardCharsets.UTF_8)).isEqualTo(V1);
    }

    @Test
    void v1Of082BrokerDecodes() throws DecodeException {
        BrokerInfo broker = decode(3, V1);

        assertThat(broker).isEqualTo(BrokerInfo.v1(3, "broker3.example.com", 9092, 9999, 1795989019637L));
        assertThat(broker.hasPlaintextEndpoint()).isTrue();
        assertThat(broker.plaintextAddress()).contains("broker3.example.com:9092");
        assertThat(broker.endpoints()).isEmpty();
        assertThat(broker.rack()).isEmpty();
    }

    @Test
    void v2Of09BrokerDecodesWithItsEndpoints() throws DecodeException {
        BrokerInfo broker = decode(1, "{\"jmx_port\":-1,\"timestamp\":\"1461160453224\","
                + "\"endpoints\":[\"PLAINTEXT://host1:9092\",\"SSL://host1:9093\"],"
                + "\"host\":\"host1\",\"version\":2,\"port\":9092}");

        assertThat(broker.version()).isEqualTo(2);
        assertThat(broker.plaintextAddress()).contains("host1:9092");
        assertThat(broker.jmxPort()).isEqualTo(-1);
        assertThat(broker.timestamp()).isEqualTo("1461160453224");
        assertThat(broker.endpoints()).containsExactly(
                new Endpoint("PLAINTEXT", "PLAINTEXT", "host1", 9092),
                new Endpoint("SSL", "SSL", "host1", 9093));
    }

    @Test
    void v3With010RackDecodes() throws DecodeException {
        BrokerInfo broker = decode(2, "{\"jmx_port\":-1,\"timestamp\":\"1483000000000\","
                + "\"endpoints\":[\"PLAINTEXT://host2:9092\"],\"rack\":\"dc1\",\"host\":\"host2\",\"version\":3,\"port\":9092}");

        assertThat(broker.version()).isEqualTo(3);
        assertThat(broker.rack()).contains("dc1");
        assertThat(broker.plaintextAddress()).contains("host2:9092");
    }

    @Test
    void v4WithACustomListenerMappedToSslTakesTheProtocolFromTheMap() throws DecodeException {
        BrokerInfo broker = decode(4, "{\"listener_security_protocol_map\":{\"CLIENT\":\"SSL\",\"REPLICATION\":\"PLAINTEXT\"},"
                + "\"endpoints\":[\"CLIENT://host4:9093\",\"REPLICATION://host4:9092\"],\"jmx_port\":-1,"
                + "\"host\":\"host4\",\"timestamp\":\"1600000000000\",\"port\":9092,\"version\":4}");

        assertThat(broker.version()).isEqualTo(4);
        assertThat(broker.endpoints()).containsExactly(
                new Endpoint("CLIENT", "SSL", "host4", 9093),
                new Endpoint("REPLICATION", "PLAINTEXT", "host4", 9092));
        assertThat(broker.plaintextAddress()).contains("host4:9092");
    }

    @Test
    void v4WithoutAPlaintextListenerHasNoPlaintextEndpoint() throws DecodeException {
        BrokerInfo broker = decode(5, "{\"listener_security_protocol_map\":{\"CLIENT\":\"SSL\"},"
                + "\"endpoints\":[\"CLIENT://host5:9093\"],\"jmx_port\":-1,"
                + "\"host\":null,\"timestamp\":\"1600000000000\",\"port\":-1,\"version\":4}");

        assertThat(broker.host()).isNull();
        assertThat(broker.port()).isEqualTo(-1);
        assertThat(broker.hasPlaintextEndpoint()).isFalse();
        assertThat(broker.plaintextAddress()).isEmpty();
        assertThat(broker.endpoints()).containsExactly(new Endpoint("CLIENT", "SSL", "host5", 9093));
    }

    @Test
    void v5With27FeaturesDecodesIgnoringTheFeatures() throws DecodeException {
        BrokerInfo broker = decode(6, "{\"features\":{\"metadata.version\":{\"min_version\":1,\"max_version\":7},"
                + "\"transaction.version\":{\"min_version\":0,\"max_version\":2}},"
                + "\"listener_security_protocol_map\":{\"PLAINTEXT\":\"PLAINTEXT\",\"EXTERNAL\":\"SASL_SSL\"},"
                + "\"endpoints\":[\"PLAINTEXT://[::1]:9092\",\"EXTERNAL://broker6.example.com:9094\"],"
                + "\"rack\":\"rack-a\",\"jmx_port\":9999,\"host\":\"::1\",\"timestamp\":\"1700000000000\","
                + "\"port\":9092,\"version\":5}");

        assertThat(broker.version()).isEqualTo(5);
        assertThat(broker.rack()).contains("rack-a");
        assertThat(broker.endpoints()).containsExactly(
                new Endpoint("PLAINTEXT", "PLAINTEXT", "::1", 9092),
                new Endpoint("EXTERNAL", "SASL_SSL", "broker6.example.com", 9094));
        assertThat(broker.plaintextAddress()).contains("[::1]:9092");
        assertThat(broker.endpoints().get(0).address()).isEqualTo("[::1]:9092");
    }

    @Test
    void prettyPrintedJsonWithUnknownKeysAndAnyVersionDecodes() throws DecodeException {
        BrokerInfo broker = decode(7, "{\n  \"version\" : 99,\n  \"host\" : \"h\",\n  \"port\" : 1,\n"
                + "  \"future\" : {\"x\": [1, 2.5, null, true]},\n  \"timestamp\" : 1700000000000\n}");

        assertThat(broker.version()).isEqualTo(99);
        assertThat(broker.plaintextAddress()).contains("h:1");
        assertThat(broker.timestamp()).isEqualTo("1700000000000");
        assertThat(broker.jmxPort()).isEqualTo(-1);
    }

    @Test
    void anEmptyHostIsNoPlaintextEndpoint() throws DecodeException {
        assertThat(decode(1, "{\"host\":\"\",\"port\":9092}").hasPlaintextEndpoint()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{}",
            "{\"version\":1}",
            "{\"host\":null,\"port\":-1}",
            "{\"host\":1,\"port\":9092}",
            "{\"host\":\"h\",\"port\":\"9092\"}",
            "{\"host\":\"h\",\"port\":9092.0}",
            "{\"host\":\"h\",\"port\":2147483648}",
            "[1]",
            "\"host\"",
            "null",
            "",
            "   ",
            "{\"host\":\"h\",\"port\":9092} trailing",
    })
    void malformedRegistrationsAreRejected(String json) {
        assertThatThrownBy(() -> decode(1, json)).isInstanceOf(DecodeException.class);
    }

    /** 0.8.2.2 reads only host and port; a broken later field must not make a usable broker unreadable. */
    @ParameterizedTest
    @ValueSource(strings = {
            "{\"host\":\"h\",\"port\":9092,\"endpoints\":[\"nonsense\"]}",
            "{\"host\":\"h\",\"port\":9092,\"endpoints\":[\"PLAINTEXT://h:99999\"]}",
            "{\"host\":\"h\",\"port\":9092,\"endpoints\":\"PLAINTEXT://h:9092\"}",
            "{\"host\":\"h\",\"port\":9092,\"version\":1.5,\"jmx_port\":\"x\",\"rack\":7}",
            "{\"host\":\"h\",\"port\":9092,\"listener_security_protocol_map\":[1]}",
    })
    void malformedOptionalFieldsAreDroppedWhenHostAndPortAreUsable(String json) throws DecodeException {
        BrokerInfo broker = decode(1, json);
        assertThat(broker.plaintextAddress()).contains("h:9092");
        assertThat(broker.endpoints()).isEmpty();
    }

    @Test
    void missingDataIsRejected() {
        assertThatThrownBy(() -> BrokerInfoCodec.decode(1, null))
                .isInstanceOf(DecodeException.class)
                .hasMessageContaining("broker registration");
    }

    @Test
    void aBrokerWithoutAPlaintextEndpointCannotBeWrittenAsV1() {
        BrokerInfo sslOnly = new BrokerInfo(1, null, -1, 4, -1, "1", List.of(new Endpoint("SSL", "SSL", "h", 9093)),
                Optional.empty());

        assertThatThrownBy(() -> BrokerInfoCodec.encode(sslOnly)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"PLAINTEXT://", "PLAINTEXT://h", "://h:1", "PLAINTEXT://h:", "PLAINTEXT://h:x",
            "PLAINTEXT://h:-1", "PLAINTEXT:/h:1", "h:1"})
    void malformedEndpointsAreRejected(String endpoint) {
        assertThatThrownBy(() -> BrokerInfoCodec.parseEndpoint(endpoint, Map.of())).isInstanceOf(DecodeException.class);
    }

    @Test
    void endpointWithoutHostBindsAllInterfaces() throws DecodeException {
        assertThat(BrokerInfoCodec.parseEndpoint("PLAINTEXT://:9092", Map.of()))
                .isEqualTo(new Endpoint("PLAINTEXT", "PLAINTEXT", "", 9092));
    }

    @Test
    void everyNumberInTheEncodingFitsInt32() {
        BrokerInfo broker = BrokerInfo.v1(Integer.MAX_VALUE, "9999999999.example", Integer.MAX_VALUE,
                Integer.MIN_VALUE, Long.MAX_VALUE);

        assertThat(JsonNumbers.numbersOutsideStrings(new String(BrokerInfoCodec.encode(broker), StandardCharsets.UTF_8)))
                .containsExactly("-2147483648", "1", "2147483647")
                .allSatisfy(number -> assertThat(JsonNumbers.isInt32(number)).isTrue());
    }
}
