package io.zkgroups.registry.codec;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.model.ConsumerId;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

/**
 * Member registrations {@code /consumers/G/ids/CID}, docs/compatibility.md#member-registrations and the JSON rows of
 * docs/compatibility.md#identifier-vectors.
 */
class MemberRegistrationCodecTest {

    private static Map<String, Integer> topics(Object... topicAndStreams) {
        Map<String, Integer> map = new LinkedHashMap<>();
        for (int i = 0; i < topicAndStreams.length; i += 2) {
            map.put((String) topicAndStreams[i], (Integer) topicAndStreams[i + 1]);
        }
        return map;
    }

    private static String encode(MemberRegistration registration) {
        return new String(MemberRegistrationCodec.encode(registration), StandardCharsets.UTF_8);
    }

    private static MemberRegistration decode(String json) throws DecodeException {
        return MemberRegistrationCodec.decode(json.getBytes(StandardCharsets.UTF_8));
    }

    // --- the exact bytes of 0.8.2.2 ------------------------------------------------------------------

    @Test
    void staticRegistrationIsByteIdenticalTo082() {
        MemberRegistration registration = MemberRegistration.of(
                Subscription.topics(topics("T1", 1, "T2", 1)), 1795988925195L);

        assertThat(encode(registration)).isEqualTo(
                "{\"version\":1,\"subscription\":{\"T1\":1,\"T2\":1},\"pattern\":\"static\",\"timestamp\":\"1795988925195\"}");
    }

    @Test
    void staticRegistrationWithTwoStreamsEachIsByteIdenticalTo082() {
        MemberRegistration registration = MemberRegistration.of(
                Subscription.topics(topics("T1", 2, "T2", 2)), 1795988925195L);

        assertThat(encode(registration)).isEqualTo(
                "{\"version\":1,\"subscription\":{\"T1\":2,\"T2\":2},\"pattern\":\"static\",\"timestamp\":\"1795988925195\"}");
    }

    @Test
    void whitelistRegistrationOfTheSpecVectorIsByteIdenticalTo082() {
        ZkLayout layout = ZkLayout.root();
        ConsumerId id = ConsumerId.ofOverride("glivewild", "w1");
        MemberRegistration registration = MemberRegistration.of(Subscription.whitelist(" \"T1, T\\d\" ", 2), 1795988925551L);

        assertThat(layout.member("glivewild", id)).isEqualTo("/consumers/glivewild/ids/glivewild_w1");
        assertThat(encode(registration)).isEqualTo(
                "{\"version\":1,\"subscription\":{\"T1|T\\\\d\":2},\"pattern\":\"white_list\",\"timestamp\":\"1795988925551\"}");
    }

    @Test
    void blacklistRegistrationIsByteIdenticalTo082() {
        MemberRegistration registration = MemberRegistration.of(Subscription.blacklist("A|B", 1), 1795988925628L);

        assertThat(encode(registration)).isEqualTo(
                "{\"version\":1,\"subscription\":{\"A|B\":1},\"pattern\":\"black_list\",\"timestamp\":\"1795988925628\"}");
    }

    @Test
    void staticTopicsAreWrittenInTheCallersOrder() {
        MemberRegistration registration = MemberRegistration.of(
                Subscription.topics(topics("zeta", 1, "alpha", 3, "mid", 2)), 0);

        assertThat(encode(registration)).contains("\"subscription\":{\"zeta\":1,\"alpha\":3,\"mid\":2}");
    }

    @Test
    void emptyStaticSubscriptionIsAnEmptyObject() {
        assertThat(encode(MemberRegistration.of(Subscription.topics(Map.of()), -5))).isEqualTo(
                "{\"version\":1,\"subscription\":{},\"pattern\":\"static\",\"timestamp\":\"-5\"}");
    }

    // --- reading what 0.8.2.2 wrote ------------------------------------------------------------------

    @Test
    void the082JsonRowsDecodeToTheirSubscriptions() throws DecodeException {
        MemberRegistration staticOne = decode(
                "{\"version\":1,\"subscription\":{\"T1\":1,\"T2\":1},\"pattern\":\"static\",\"timestamp\":\"1795988925195\"}");
        MemberRegistration white = decode(
                "{\"version\":1,\"subscription\":{\"T1|T\\\\d\":2},\"pattern\":\"white_list\",\"timestamp\":\"1795988925551\"}");
        MemberRegistration black = decode(
                "{\"version\":1,\"subscription\":{\"A|B\":1},\"pattern\":\"black_list\",\"timestamp\":\"1795988925628\"}");

        assertThat(staticOne).isEqualTo(MemberRegistration.of(Subscription.topics(topics("T1", 1, "T2", 1)), 1795988925195L));
        assertThat(((Subscription.Static) staticOne.subscription()).streamsPerTopic().keySet()).containsExactly("T1", "T2");
        assertThat(white).isEqualTo(MemberRegistration.of(
                new Subscription.Wildcard(Subscription.Wildcard.Kind.WHITE_LIST, "T1|T\\d", 2), 1795988925551L));
        assertThat(black).isEqualTo(MemberRegistration.of(
                new Subscription.Wildcard(Subscription.Wildcard.Kind.BLACK_LIST, "A|B", 1), 1795988925628L));
        assertThat(staticOne.capabilities()).isEmpty();
    }

    @Test
    void aNumericTimestampIsAccepted() throws DecodeException {
        MemberRegistration registration = decode(
                "{\"version\":1,\"subscription\":{\"T1\":1},\"pattern\":\"static\",\"timestamp\":123}");

        assertThat(registration.timestamp()).isEqualTo("123");
    }

    @Test
    void versionAndTimestampAreIgnoredByReaders() throws DecodeException {
        MemberRegistration registration = decode(
                "{ \"pattern\" : \"static\" , \"subscription\" : { \"T1\" : 4 } , \"version\" : \"whatever\" }");

        assertThat(registration.timestamp()).isEmpty();
        assertThat(registration.subscription()).isEqualTo(Subscription.topics(Map.of("T1", 4)));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"version\":1,\"subscription\":{\"T1\":1},\"timestamp\":\"1\"}",
            "{\"version\":1,\"pattern\":\"static\",\"timestamp\":\"1\"}",
            "{\"version\":1,\"subscription\":{\"T1\":1},\"pattern\":null,\"timestamp\":\"1\"}",
            "{\"version\":1,\"subscription\":null,\"pattern\":\"static\",\"timestamp\":\"1\"}",
            "{\"version\":1,\"subscription\":[\"T1\"],\"pattern\":\"static\",\"timestamp\":\"1\"}",
            "{\"version\":1,\"subscription\":{\"T1\":1},\"pattern\":7,\"timestamp\":\"1\"}",
            "{}",
    })
    void aRegistrationWithoutPatternOrSubscriptionIsRejected(String json) {
        assertThatThrownBy(() -> decode(json)).isInstanceOf(DecodeException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"white_list", "black_list", "static"})
    void anEmptySubscriptionReadsAsStaticWhateverThePattern(String pattern) throws DecodeException {
        MemberRegistration registration = decode(
                "{\"version\":1,\"subscription\":{},\"pattern\":\"" + pattern + "\",\"timestamp\":\"1\"}");

        assertThat(registration.subscription()).isEqualTo(Subscription.topics(Map.of()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"static", "STATIC", "WHITE_LIST", "whitelist", "", "regex"})
    void aPatternOtherThanWhiteOrBlackListReadsAsStatic(String pattern) throws DecodeException {
        MemberRegistration registration = decode(
                "{\"version\":1,\"subscription\":{\"T1\":2,\"T2\":1},\"pattern\":\"" + pattern + "\",\"timestamp\":\"1\"}");

        assertThat(registration.subscription()).isInstanceOfSatisfying(Subscription.Static.class, s ->
                assertThat(s.streamsPerTopic()).containsExactly(entry("T1", 2), entry("T2", 1)));
    }

    @Test
    void aWildcardTakesTheFirstEntryOfItsSubscription() throws DecodeException {
        MemberRegistration registration = decode(
                "{\"version\":1,\"subscription\":{\"A.*\":3,\"B.*\":1},\"pattern\":\"black_list\",\"timestamp\":\"1\"}");

        assertThat(registration.subscription())
                .isEqualTo(new Subscription.Wildcard(Subscription.Wildcard.Kind.BLACK_LIST, "A.*", 3));
    }

    @Test
    void aWhiteListOfSeveralTopicNamesIsThoseTopicsAsKafkaNodeMeansIt() throws DecodeException {
        // kafka-node 2.x's HighLevelConsumer, byte for byte (its spaces included)
        MemberRegistration registration = decode(
                "{\"version\":1,\"subscription\":{\"orders\": 1, \"clicks\": 1},\"pattern\":\"white_list\",\"timestamp\":\"1795988925551\"}");

        assertThat(registration.subscription()).isInstanceOfSatisfying(Subscription.Static.class, s ->
                assertThat(s.streamsPerTopic()).containsExactly(entry("orders", 1), entry("clicks", 1)));
    }

    @Test
    void aWhiteListOfOneTopicNameStaysTheRegexThatMatchesExactlyIt() throws DecodeException {
        MemberRegistration registration = decode(
                "{\"version\":1,\"subscription\":{\"orders\": 1},\"pattern\":\"white_list\",\"timestamp\":\"1\"}");

        assertThat(registration.subscription())
                .isEqualTo(new Subscription.Wildcard(Subscription.Wildcard.Kind.WHITE_LIST, "orders", 1));
    }

    @Test
    void aWhiteListWhoseEntriesAreNotAllTopicNamesTakesTheFirstAsItsRegex() throws DecodeException {
        MemberRegistration registration = decode(
                "{\"version\":1,\"subscription\":{\"A.*\":3,\"B|C\":1},\"pattern\":\"white_list\",\"timestamp\":\"1\"}");

        assertThat(registration.subscription())
                .isEqualTo(new Subscription.Wildcard(Subscription.Wildcard.Kind.WHITE_LIST, "A.*", 3));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"subscription\":{\"(\":1},\"pattern\":\"white_list\"}",
            "{\"subscription\":{\"T1\":1.5},\"pattern\":\"white_list\"}",
            "{\"subscription\":{\"T1\":\"1\"},\"pattern\":\"static\"}",
            "{\"subscription\":{\"T1\":2147483648},\"pattern\":\"static\"}",
            "{\"subscription\":{\"T1\":-1},\"pattern\":\"static\"}",
            "{\"subscription\":{\"T1\":null},\"pattern\":\"static\"}",
            "{\"subscription\":{\"a/b\":1},\"pattern\":\"static\"}",
            "{\"subscription\":{\"..\":1},\"pattern\":\"static\"}",
            "{\"subscription\":{\"T1|T\\\\d\":1},\"pattern\":\"unknown\"}",
    })
    void badStreamCountsRegexesAndTopicNamesAreRejected(String json) {
        assertThatThrownBy(() -> decode(json)).isInstanceOf(DecodeException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"version\":1,\"subscription\":{\"t\":2147483647},\"pattern\":\"static\",\"timestamp\":\"1\"}",
            "{\"subscription\":{\"t\":10001},\"pattern\":\"static\"}",
            "{\"subscription\":{\"a\":5000,\"b\":5001},\"pattern\":\"static\"}",
            "{\"subscription\":{\"a\":2147483647,\"b\":2147483647},\"pattern\":\"static\"}",
            "{\"subscription\":{\"t.*\":10001},\"pattern\":\"white_list\"}",
    })
    void aRegistrationDeclaringMoreStreamsThanTheCapIsMalformed(String json) {
        assertThatThrownBy(() -> decode(json)).isInstanceOf(DecodeException.class)
                .hasMessageContaining("streams in all, more than the " + Subscription.MAX_STREAMS);
    }

    @Test
    void registrationsAtTheStreamCapAreRead() throws DecodeException {
        assertThat(decode("{\"subscription\":{\"a\":5000,\"b\":5000},\"pattern\":\"static\"}").subscription())
                .isEqualTo(Subscription.topics(topics("a", 5000, "b", 5000)));
        assertThat(decode("{\"subscription\":{\"t.*\":10000},\"pattern\":\"white_list\"}").subscription())
                .isEqualTo(new Subscription.Wildcard(Subscription.Wildcard.Kind.WHITE_LIST, "t.*", 10_000));
    }

    @Test
    void aRegexTooDeeplyNestedToCompileIsRejectedNotThrown() {
        String regex = "(".repeat(20_000) + ")".repeat(20_000);

        assertThatThrownBy(() -> decode("{\"subscription\":{\"" + regex + "\":1},\"pattern\":\"white_list\"}"))
                .isInstanceOf(DecodeException.class);
    }

    // --- escaping ------------------------------------------------------------------------------------

    @Test
    void aWildcardRegexIsEscapedWithJsonEscapeString() throws DecodeException {
        String regex = "a\"b\\.c/d" + "\u0000\u0001\u001f" + "\b\f\n\r\t" + "\u007f\u0080\u0085\u009f" + "\u00a0é€日";
        MemberRegistration registration = MemberRegistration.of(
                new Subscription.Wildcard(Subscription.Wildcard.Kind.WHITE_LIST, regex, 1), 7);

        String json = encode(registration);

        assertThat(json).isEqualTo("{\"version\":1,\"subscription\":{\""
                + "a\\\"b\\\\.c\\/d" + "\\u0000\\u0001\\u001f" + "\\b\\f\\n\\r\\t" + "\\u007f\\u0080\\u0085\\u009f"
                + "\u00a0é€日"
                + "\":1},\"pattern\":\"white_list\",\"timestamp\":\"7\"}");
        assertThat(decode(json)).isEqualTo(registration);
    }

    @Test
    void escapeMatches082ForEveryCharacter() {
        for (char c = 0; c < Character.MAX_VALUE; c++) {
            String expected = switch (c) {
                case '"' -> "\\\"";
                case '\\' -> "\\\\";
                case '/' -> "\\/";
                case '\b' -> "\\b";
                case '\f' -> "\\f";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case '\t' -> "\\t";
                default -> c <= 0x1f || (c >= 0x7f && c <= 0x9f)
                        ? "\\u00" + Character.forDigit(c >> 4, 16) + Character.forDigit(c & 0xf, 16)
                        : String.valueOf(c);
            };
            assertThat(Json.escape(String.valueOf(c))).as("escape of U+%04X", (int) c).isEqualTo(expected);
        }
    }

    // --- the zkgroups extra key ----------------------------------------------------------------------

    @Test
    void withoutCapabilitiesThereIsNoExtraKey() {
        MemberRegistration registration = MemberRegistration.of(Subscription.topics(topics("T1", 1)), 42);

        assertThat(encode(registration))
                .isEqualTo("{\"version\":1,\"subscription\":{\"T1\":1},\"pattern\":\"static\",\"timestamp\":\"42\"}")
                .doesNotContain(MemberRegistrationCodec.CAPABILITIES_KEY);
    }

    @Test
    void capabilitiesGoUnderOneExtraKeyAfterThe082KeysAndRoundTrip() throws DecodeException {
        Map<String, String> capabilities = new LinkedHashMap<>();
        capabilities.put("assignor", "range");
        capabilities.put("odd \"key\"/", "v\u0001\\");
        MemberRegistration registration = MemberRegistration.of(Subscription.topics(topics("T1", 1)), 42)
                .withCapabilities(capabilities);

        String json = encode(registration);

        assertThat(json).isEqualTo("{\"version\":1,\"subscription\":{\"T1\":1},\"pattern\":\"static\",\"timestamp\":\"42\","
                + "\"zkgroups\":{\"assignor\":\"range\",\"odd \\\"key\\\"\\/\":\"v\\u0001\\\\\"}}");
        assertThat(decode(json)).isEqualTo(registration);
        assertThat(decode(json).capabilities()).containsExactly(entry("assignor", "range"), entry("odd \"key\"/", "v\u0001\\"));
    }

    @Test
    void nonTextCapabilitiesAndANonObjectExtraKeyAreIgnored() throws DecodeException {
        assertThat(decode("{\"subscription\":{},\"pattern\":\"static\",\"zkgroups\":{\"a\":1,\"b\":\"x\",\"c\":null}}")
                .capabilities()).containsExactly(entry("b", "x"));
        assertThat(decode("{\"subscription\":{},\"pattern\":\"static\",\"zkgroups\":[1]}").capabilities()).isEmpty();
    }

    @Test
    void everyNumberInEncodedRegistrationsFitsInt32() {
        MemberRegistration[] registrations = {
                MemberRegistration.of(Subscription.topics(topics("T1", Subscription.MAX_STREAMS - 1, "2147483648", 1)),
                        Long.MAX_VALUE),
                MemberRegistration.of(new Subscription.Wildcard(Subscription.Wildcard.Kind.WHITE_LIST,
                        "T1|99999999999|\\d{1,9}", Subscription.MAX_STREAMS), Long.MIN_VALUE),
                MemberRegistration.of(Subscription.blacklist("A", 0), 1795988925628L)
                        .withCapabilities(Map.of("n", "123456789012345")),
        };
        for (MemberRegistration registration : registrations) {
            assertThat(JsonNumbers.numbersOutsideStrings(encode(registration)))
                    .allSatisfy(number -> assertThat(JsonNumbers.isInt32(number)).as(number).isTrue());
        }
    }
}
