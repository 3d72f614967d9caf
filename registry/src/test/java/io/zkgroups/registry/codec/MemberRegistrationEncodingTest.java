package io.zkgroups.registry.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The shape of encoded member registrations: the exact 0.8.2.2 layout, in the caller's topic order. */
class MemberRegistrationEncodingTest {

    private static final Pattern STATIC_SHAPE =
            Pattern.compile("\\{\"version\":1,\"subscription\":\\{.*\\},\"pattern\":\"static\",\"timestamp\":\"-?\\d+\"\\}");
    private static final Pattern WILDCARD_SHAPE = Pattern.compile(
            "\\{\"version\":1,\"subscription\":\\{\"(?:[^\"\\\\]|\\\\.)*\":\\d+\\},\"pattern\":\"(white_list|black_list)\","
                    + "\"timestamp\":\"-?\\d+\"\\}");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Provide
    Arbitrary<MemberRegistration> staticRegistrations() {
        return CodecArbitraries.staticRegistrations();
    }

    @Provide
    Arbitrary<Subscription.Wildcard> wildcards() {
        return CodecArbitraries.wildcardSubscriptions();
    }

    @Provide
    Arbitrary<MemberRegistration> registrations() {
        return CodecArbitraries.registrations();
    }

    @Property
    void decodingKeepsTheOrderOfStaticTopics(@ForAll("staticRegistrations") MemberRegistration registration)
            throws DecodeException {
        MemberRegistration decoded = MemberRegistrationCodec.decode(MemberRegistrationCodec.encode(registration));

        Subscription.Static written = (Subscription.Static) registration.subscription();
        assertThat(decoded.subscription()).isInstanceOfSatisfying(Subscription.Static.class, read ->
                assertThat(new ArrayList<>(read.streamsPerTopic().entrySet()))
                        .containsExactlyElementsOf(written.streamsPerTopic().entrySet()));
    }

    @Property
    void staticRegistrationHasThe082Shape(@ForAll("staticRegistrations") MemberRegistration registration) {
        String json = new String(MemberRegistrationCodec.encode(registration), StandardCharsets.UTF_8);

        assertThat(json).matches(STATIC_SHAPE);
        Subscription.Static subscription = (Subscription.Static) registration.subscription();
        StringBuilder expectedSubscription = new StringBuilder();
        subscription.streamsPerTopic().forEach((topic, streams) -> expectedSubscription
                .append(expectedSubscription.length() == 0 ? "" : ",")
                .append('"').append(topic).append("\":").append(streams));
        assertThat(json).contains("\"subscription\":{" + expectedSubscription + "}");
    }

    @Property
    void wildcardRegistrationHasThe082Shape(@ForAll("wildcards") Subscription.Wildcard wildcard, @ForAll long timestamp) {
        String json = new String(MemberRegistrationCodec.encode(MemberRegistration.of(wildcard, timestamp)),
                StandardCharsets.UTF_8);

        assertThat(json).matches(WILDCARD_SHAPE).contains("\"timestamp\":\"" + timestamp + "\"");
    }

    @Property
    void keysAreThe082KeysInOrderPlusTheExtraKeyOnlyWithCapabilities(@ForAll("registrations") MemberRegistration registration)
            throws IOException {
        JsonNode json = MAPPER.readTree(MemberRegistrationCodec.encode(registration));

        List<String> keys = new ArrayList<>();
        json.fieldNames().forEachRemaining(keys::add);
        if (registration.capabilities().isEmpty()) {
            assertThat(keys).containsExactly("version", "subscription", "pattern", "timestamp");
        } else {
            assertThat(keys).containsExactly("version", "subscription", "pattern", "timestamp",
                    MemberRegistrationCodec.CAPABILITIES_KEY);
        }
        assertThat(json.get("timestamp").isTextual()).isTrue();
        assertThat(json.get("version").intValue()).isEqualTo(1);
    }
}
