package io.zkgroups.registry.codec;

import io.zkgroups.registry.model.BrokerInfo;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.PartitionState;
import io.zkgroups.registry.model.Subscription;
import io.zkgroups.registry.model.TopicRegistration;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Pattern;

/** Generators of model values, their encodings, and hostile bytes for the codec properties. */
final class CodecArbitraries {

    private CodecArbitraries() {
    }

    // --- valid model values --------------------------------------------------------------------------

    /** Topic names of 0.8.2.2: {@code [a-zA-Z0-9._-]{1,30}} minus {@code .} and {@code ..}. */
    static Arbitrary<String> topics() {
        return Arbitraries.strings()
                .withCharRange('a', 'z').withCharRange('A', 'Z').withCharRange('0', '9').withChars('.', '_', '-')
                .ofMinLength(1).ofMaxLength(30)
                .filter(t -> !t.equals(".") && !t.equals(".."));
    }

    /** Any string a Java program can hold that survives UTF-8 (no unpaired surrogates), often with C0/C1 controls. */
    static Arbitrary<String> text() {
        Arbitrary<String> any = Arbitraries.strings().ofMaxLength(20);
        Arbitrary<String> latin = Arbitraries.strings().withCharRange('\u0000', '\u00ff').ofMaxLength(20);
        return Arbitraries.oneOf(any, latin).map(CodecArbitraries::wellFormed);
    }

    static String wellFormed(String s) {
        return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }

    static Arbitrary<Subscription.Static> staticSubscriptions() {
        return topics().list().uniqueElements().ofMaxSize(8).flatMap(topics ->
                Arbitraries.integers().between(0, Subscription.MAX_STREAMS / 8).list().ofSize(topics.size()).map(streams -> {
                    Map<String, Integer> map = new LinkedHashMap<>();
                    for (int i = 0; i < topics.size(); i++) {
                        map.put(topics.get(i), streams.get(i));
                    }
                    return Subscription.topics(map);
                }));
    }

    /** A small set of safe regexes, literal topic names (plain or quoted), and alternations of both. */
    static Arbitrary<String> regexes() {
        Arbitrary<String> safe = Arbitraries.of(".*", "T1|T\\d", "A|B", "orders-.*", "[a-z]+", "^(foo|bar)$", "a\\.b",
                "\\w+", "x{2,3}", "(?i)clicks", "[^_].*", "\"quoted\"", "a/b", "\\\\", "\\Q.*\\E", "\u00e9t\u00e9",
                "tab\t|nl\n", "c1\u0085|del\u007f", "");
        Arbitrary<String> literal = topics();
        Arbitrary<String> quoted = topics().map(Pattern::quote);
        Arbitrary<String> one = Arbitraries.oneOf(safe, literal, quoted);
        return Arbitraries.oneOf(one, one.list().ofMinSize(2).ofMaxSize(4).map(parts -> String.join("|", parts)));
    }

    static Arbitrary<Subscription.Wildcard> wildcardSubscriptions() {
        return Combinators.combine(
                Arbitraries.of(Subscription.Wildcard.Kind.class),
                regexes(),
                Arbitraries.integers().between(0, Subscription.MAX_STREAMS)
        ).as(Subscription.Wildcard::new);
    }

    static Arbitrary<Subscription> subscriptions() {
        return Arbitraries.oneOf(staticSubscriptions(), wildcardSubscriptions());
    }

    static Arbitrary<Map<String, String>> capabilities() {
        Arbitrary<Map<String, String>> some = Arbitraries.maps(text(), text()).ofMaxSize(4)
                .map(LinkedHashMap::new);
        return Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just(Map.of())),
                Tuple.of(1, some));
    }

    static Arbitrary<MemberRegistration> registrations() {
        return Combinators.combine(subscriptions(), Arbitraries.longs(), capabilities())
                .as((subscription, timestamp, capabilities) ->
                        MemberRegistration.of(subscription, timestamp).withCapabilities(capabilities));
    }

    static Arbitrary<MemberRegistration> staticRegistrations() {
        return Combinators.combine(staticSubscriptions(), Arbitraries.longs())
                .as((subscription, timestamp) -> MemberRegistration.of(subscription, timestamp));
    }

    static Arbitrary<String> hosts() {
        Arbitrary<String> names = Arbitraries.strings().withCharRange('a', 'z').withCharRange('0', '9').withChars('.', '-')
                .ofMinLength(1).ofMaxLength(40);
        Arbitrary<String> special = Arbitraries.of("localhost", "127.0.0.1", "::1", "fe80::1%eth0",
                "broker3.example.com", "h\"q", "a/b", "\\", "tab\there", "\u0080\u009f", "\u65e5\u672c");
        return Arbitraries.oneOf(names, special, text().filter(s -> !s.isEmpty()));
    }

    static Arbitrary<BrokerInfo> brokers() {
        return Combinators.combine(
                Arbitraries.integers().greaterOrEqual(0),
                hosts(),
                Arbitraries.oneOf(Arbitraries.integers().between(0, 65535), Arbitraries.integers().greaterOrEqual(0)),
                Arbitraries.integers(),
                Arbitraries.longs()
        ).as(BrokerInfo::v1);
    }

    static Arbitrary<List<Integer>> replicaLists() {
        return Arbitraries.oneOf(Arbitraries.integers().between(0, 10), Arbitraries.integers())
                .list().ofMaxSize(6);
    }

    static Arbitrary<TopicRegistration> topicRegistrations() {
        Arbitrary<Integer> partition = Arbitraries.oneOf(
                Arbitraries.integers().between(0, 200), Arbitraries.integers().greaterOrEqual(0));
        return Arbitraries.maps(partition, replicaLists()).ofMaxSize(12)
                .map(map -> new TopicRegistration(1, new TreeMap<>(map), Optional.empty()));
    }

    static Arbitrary<PartitionState> partitionStates() {
        return Combinators.combine(Arbitraries.integers(), Arbitraries.integers(), Arbitraries.integers(), replicaLists())
                .as(PartitionState::new);
    }

    // --- encodings -----------------------------------------------------------------------------------

    /** Real JSON written by 0.8.2.2 and later brokers/tools (docs/compatibility.md#znode-data-formats). */
    static final List<String> OBSERVED = List.of(
            "{\"jmx_port\":9999,\"timestamp\":\"1795989019637\",\"host\":\"broker3.example.com\",\"version\":1,\"port\":9092}",
            "{\"jmx_port\":-1,\"timestamp\":\"1461160453224\",\"endpoints\":[\"PLAINTEXT://host1:9092\",\"SSL://host1:9093\"],"
                    + "\"host\":\"host1\",\"version\":2,\"port\":9092}",
            "{\"jmx_port\":-1,\"timestamp\":\"1483000000000\",\"endpoints\":[\"PLAINTEXT://host2:9092\"],\"rack\":\"dc1\","
                    + "\"host\":\"host2\",\"version\":3,\"port\":9092}",
            "{\"listener_security_protocol_map\":{\"CLIENT\":\"SSL\"},\"endpoints\":[\"CLIENT://host5:9093\"],"
                    + "\"jmx_port\":-1,\"host\":null,\"timestamp\":\"1600000000000\",\"port\":-1,\"version\":4}",
            "{\"features\":{\"metadata.version\":{\"min_version\":1,\"max_version\":7}},"
                    + "\"listener_security_protocol_map\":{\"PLAINTEXT\":\"PLAINTEXT\"},\"endpoints\":[\"PLAINTEXT://[::1]:9092\"],"
                    + "\"rack\":\"r\",\"jmx_port\":9999,\"host\":\"::1\",\"timestamp\":\"1700000000000\",\"port\":9092,\"version\":5}",
            "{\"version\":1,\"partitions\":{\"0\":[1,2],\"1\":[2,3]}}",
            "{\"version\":2,\"partitions\":{\"0\":[1,2,3]},\"adding_replicas\":{\"0\":[3]},\"removing_replicas\":{\"0\":[1]},"
                    + "\"topic_id\":\"sB4MoeMnTWqTw2WdLVt7yw\"}",
            "{\"controller_epoch\":7,\"leader\":1,\"version\":1,\"leader_epoch\":5,\"isr\":[1,2]}",
            "{\"version\":1,\"subscription\":{\"T1\":1,\"T2\":1},\"pattern\":\"static\",\"timestamp\":\"1795988925195\"}",
            "{\"version\":1,\"subscription\":{\"T1|T\\\\d\":2},\"pattern\":\"white_list\",\"timestamp\":\"1795988925551\"}",
            "{\"version\":1,\"subscription\":{\"A|B\":1},\"pattern\":\"black_list\",\"timestamp\":\"1795988925628\"}",
            "286894308");

    /** Valid encodings of every codec, generated and observed. */
    static Arbitrary<byte[]> validEncodings() {
        return Arbitraries.oneOf(
                registrations().map(MemberRegistrationCodec::encode),
                brokers().map(BrokerInfoCodec::encode),
                topicRegistrations().map(TopicRegistrationCodec::encode),
                partitionStates().map(PartitionStateCodec::encode),
                Arbitraries.longs().map(OffsetCodec::encode),
                Arbitraries.of(OBSERVED).map(s -> s.getBytes(StandardCharsets.UTF_8)));
    }

    // --- hostile input -------------------------------------------------------------------------------

    /** Valid encodings after one to four random mutations: truncation, byte flips, insertions, cuts, splices. */
    static Arbitrary<byte[]> mutatedEncodings() {
        return Combinators.combine(Arbitraries.oneOf(validEncodings(), jsonish().map(CodecArbitraries::utf8)),
                        Arbitraries.longs())
                .as((bytes, seed) -> mutate(bytes, new Random(seed)));
    }

    private static final String[] INSERTS = {"{", "}", "[", "]", "\"", ":", ",", "\\", "\\u", "\\ud800", "-", "0", "9",
            "1e999", "99999999999999999999", ".5", "null", "true", " ", "\n", "\u0000", "\u0085", "\u00e9", "\ud83d\ude00",
            "\"pattern\":\"white_list\"", "\"subscription\":{\"(\":1}", "\"endpoints\":[\"x\"]", "\"leader\":1",
            "\"partitions\":{\"0\":[1]}", "PLAINTEXT://", "[::1]:", "://"};

    static byte[] mutate(byte[] original, Random random) {
        byte[] bytes = original.clone();
        int mutations = 1 + random.nextInt(4);
        for (int m = 0; m < mutations; m++) {
            int at = bytes.length == 0 ? 0 : random.nextInt(bytes.length + 1);
            switch (random.nextInt(7)) {
                case 0 -> bytes = Arrays.copyOf(bytes, at);
                case 1 -> {
                    if (bytes.length > 0) {
                        bytes[Math.min(at, bytes.length - 1)] ^= (byte) (1 << random.nextInt(8));
                    }
                }
                case 2 -> {
                    if (bytes.length > 0) {
                        bytes[Math.min(at, bytes.length - 1)] = (byte) random.nextInt(256);
                    }
                }
                case 3 -> bytes = insert(bytes, at, INSERTS[random.nextInt(INSERTS.length)].getBytes(StandardCharsets.UTF_8));
                case 4 -> bytes = insert(bytes, at, new byte[] {(byte) random.nextInt(256)});
                case 5 -> {
                    int end = at + random.nextInt(Math.max(1, bytes.length - at + 1));
                    byte[] cut = new byte[bytes.length - (end - at)];
                    System.arraycopy(bytes, 0, cut, 0, at);
                    System.arraycopy(bytes, end, cut, at, bytes.length - end);
                    bytes = cut;
                }
                default -> {
                    int from = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
                    int length = Math.min(bytes.length - from, random.nextInt(16));
                    bytes = insert(bytes, at, Arrays.copyOfRange(bytes, from, from + length));
                }
            }
        }
        return bytes;
    }

    private static byte[] insert(byte[] bytes, int at, byte[] inserted) {
        byte[] out = new byte[bytes.length + inserted.length];
        System.arraycopy(bytes, 0, out, 0, at);
        System.arraycopy(inserted, 0, out, at, inserted.length);
        System.arraycopy(bytes, at, out, at + inserted.length, bytes.length - at);
        return out;
    }

    /** Arbitrary bytes: uniformly random, or drawn from JSON punctuation, digits and invalid UTF-8 lead bytes. */
    static Arbitrary<byte[]> bytes() {
        Arbitrary<byte[]> uniform = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        List<Byte> alphabet = new ArrayList<>();
        for (byte b : "{}[]\":,\\ 019-.etrunl".getBytes(StandardCharsets.US_ASCII)) {
            alphabet.add(b);
        }
        for (int b : new int[] {0x00, 0x80, 0xbf, 0xc0, 0xc3, 0xe2, 0xed, 0xf0, 0xf8, 0xfe, 0xff}) {
            alphabet.add((byte) b);
        }
        Arbitrary<byte[]> jsonBytes = Arbitraries.of(alphabet).array(byte[].class).ofMaxSize(300);
        return Arbitraries.oneOf(uniform, jsonBytes);
    }

    /** Arbitrary text in several charsets (UTF-16/32 exercise Jackson's encoding detection). */
    static Arbitrary<byte[]> encodedStrings() {
        return Combinators.combine(
                Arbitraries.strings().ofMaxLength(200),
                Arbitraries.of(StandardCharsets.UTF_8, StandardCharsets.UTF_16, StandardCharsets.UTF_16BE,
                        StandardCharsets.UTF_16LE, StandardCharsets.ISO_8859_1, Charset.forName("UTF-32"))
        ).as(String::getBytes);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Random JSON-ish text: nested objects and arrays (up to ~120 deep) of strings, numbers (huge, negative,
     * floats, exponents), booleans and nulls, often using the keys and value shapes the codecs look for.
     */
    static Arbitrary<String> jsonish() {
        return Arbitraries.randomValue(random -> {
            StringBuilder out = new StringBuilder();
            switch (random.nextInt(6)) {
                case 0 -> value(out, random, 0, 4);
                case 1 -> {
                    int depth = 1 + random.nextInt(120);
                    Deque<Character> closers = new ArrayDeque<>();
                    for (int i = 0; i < depth; i++) {
                        if (random.nextBoolean()) {
                            out.append('[');
                            closers.push(']');
                        } else {
                            out.append("{\"").append(key(random)).append("\":");
                            closers.push('}');
                        }
                    }
                    value(out, random, 0, 1);
                    while (!closers.isEmpty()) {
                        out.append(closers.pop());
                    }
                }
                default -> shapedObject(out, random, random.nextInt(30) == 0 ? 40 + random.nextInt(40) : 0);
            }
            return out.toString();
        });
    }

    private static final String[] KEYS = {"host", "port", "version", "jmx_port", "timestamp", "endpoints", "rack",
            "listener_security_protocol_map", "features", "partitions", "adding_replicas", "removing_replicas",
            "topic_id", "leader", "controller_epoch", "leader_epoch", "isr", "pattern", "subscription", "zkgroups",
            "", "T1", "0", "007", "-1", "x\"y", "\\u0000", "\u00e9"};

    private static String key(Random random) {
        return KEYS[random.nextInt(KEYS.length)].replace("\"", "\\\"");
    }

    /** Objects shaped for one of the decoders: their keys with mostly plausible, sometimes hostile values. */
    static Arbitrary<String> shapedObjects() {
        return Arbitraries.randomValue(random -> {
            StringBuilder out = new StringBuilder();
            shapedObject(out, random, 0);
            return out.toString();
        });
    }

    /** Required keys of each decoder, so that shaped objects get past the first checks. */
    private static final String[][] SHAPES = {
            {"pattern", "subscription"},
            {"pattern", "subscription", "timestamp", "version", "zkgroups"},
            {"host", "port"},
            {"host", "port", "endpoints", "listener_security_protocol_map", "rack", "jmx_port", "version"},
            {"partitions"},
            {"partitions", "version", "topic_id", "adding_replicas"},
            {"leader", "isr"},
            {"leader", "isr", "controller_epoch", "leader_epoch"},
            {},
    };

    /**
     * An object shaped for one decoder: its keys (shuffled, sometimes plus random extra keys), each with a
     * plausible value most of the time and a random one otherwise; sometimes one value nested too deep.
     */
    private static void shapedObject(StringBuilder out, Random random, int wrapDepth) {
        List<String> keys = new ArrayList<>(List.of(SHAPES[random.nextInt(SHAPES.length)]));
        int extra = random.nextInt(3);
        for (int i = 0; i < extra; i++) {
            keys.add(KEYS[random.nextInt(KEYS.length)]);
        }
        Collections.shuffle(keys, random);
        out.append('{');
        for (int i = 0; i < keys.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            String key = keys.get(i);
            out.append('"').append(key.replace("\"", "\\\"")).append("\":");
            if (wrapDepth > 0 && i == 0) {
                out.append("[".repeat(wrapDepth)).append('1').append("]".repeat(wrapDepth));
            } else if (random.nextInt(10) == 0) {
                value(out, random, 0, 3);
            } else {
                plausible(out, key, random);
            }
        }
        out.append('}');
    }

    private static void plausible(StringBuilder out, String key, Random random) {
        switch (key) {
            case "pattern" -> out.append(pick(random, "\"static\"", "\"white_list\"", "\"black_list\"", "\"\"", "\"x\""));
            case "subscription" -> {
                out.append('{');
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    out.append(i > 0 ? "," : "")
                            .append(pick(random, "\"T1\"", "\"T2\"", "\"orders\"", "\"a.b-c_d\"", "\"(\"", "\"[\"", "\"*\"", "\"a/b\"", "\".*\"", "\"\"", "\"..\"",
                                    "\"T1|T\\\\d\"", "\"\\\\\"", "\"\\ud800\"", "\"((((((((((a))))))))))\""))
                            .append(':');
                    number(out, random);
                }
                out.append('}');
            }
            case "endpoints" -> {
                out.append('[');
                int n = random.nextInt(3);
                for (int i = 0; i < n; i++) {
                    out.append(i > 0 ? "," : "").append(pick(random, "\"PLAINTEXT://h:9092\"", "\"SSL://[::1]:9093\"",
                            "\"x\"", "\"://\"", "\"A://h:99999\"", "\"A://h:-1\"", "\"A://h:\"", "\":\"", "\"a://b://c:1\"",
                            "\"A://[]:1\"", "\"A://[:1\"", "\"A://]:1\"", "\"PLAINTEXT://h\"", "\"A://\"", "\"A:///:1\"",
                            "\"A://h:+1\"", "1", "null"));
                }
                out.append(']');
            }
            case "partitions", "adding_replicas", "removing_replicas" -> {
                out.append('{');
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    out.append(i > 0 ? "," : "").append(pick(random, "\"0\"", "\"1\"", "\"2\"", "\"10\"", "\"007\"",
                            "\"-1\"", "\"2147483647\"", "\"2147483648\"", "\"\"", "\"x\"")).append(':');
                    if (random.nextInt(4) == 0) {
                        value(out, random, 0, 2);
                    } else {
                        plausible(out, "isr", random);
                    }
                }
                out.append('}');
            }
            case "listener_security_protocol_map", "zkgroups", "features" -> {
                out.append('{');
                int n = random.nextInt(3);
                for (int i = 0; i < n; i++) {
                    out.append(i > 0 ? "," : "").append(pick(random, "\"PLAINTEXT\"", "\"CLIENT\"", "\"A\"", "\"\"",
                            "\"assignor\"")).append(':');
                    if (random.nextBoolean()) {
                        string(out, random);
                    } else {
                        value(out, random, 0, 2);
                    }
                }
                out.append('}');
            }
            case "isr" -> {
                out.append('[');
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    out.append(i > 0 ? "," : "");
                    number(out, random);
                }
                out.append(']');
            }
            case "host", "rack", "topic_id", "timestamp" -> string(out, random);
            default -> number(out, random);
        }
    }

    private static void value(StringBuilder out, Random random, int depth, int maxDepth) {
        int kind = random.nextInt(depth >= maxDepth ? 4 : 6);
        switch (kind) {
            case 0 -> number(out, random);
            case 1 -> string(out, random);
            case 2 -> out.append(pick(random, "true", "false", "null"));
            case 3 -> number(out, random);
            case 4 -> {
                out.append('[');
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    out.append(i > 0 ? "," : "");
                    value(out, random, depth + 1, maxDepth);
                }
                out.append(']');
            }
            default -> {
                out.append('{');
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    out.append(i > 0 ? "," : "").append('"').append(key(random)).append("\":");
                    value(out, random, depth + 1, maxDepth);
                }
                out.append('}');
            }
        }
    }

    /** Mostly Int32 values; sometimes longs, floats, exponents; rarely tokens that are not JSON at all. */
    private static void number(StringBuilder out, Random random) {
        int roll = random.nextInt(100);
        if (roll < 40) {
            out.append(random.nextInt(10));
        } else if (roll < 55) {
            out.append(random.nextInt(2001) - 1000);
        } else if (roll < 65) {
            out.append(random.nextInt());
        } else if (roll < 72) {
            out.append(random.nextLong());
        } else if (roll < 80) {
            out.append(pick(random, "2147483647", "2147483648", "-2147483648", "-2147483649", "-0", "0",
                    "9223372036854775808", "1e999", "-1e999", "1E-999", "0.0", "1.0", "1e2", "-1.5e-3"));
        } else if (roll < 87) {
            out.append(random.nextDouble() * Math.pow(10, random.nextInt(40) - 20));
        } else if (roll < 92) {
            out.append(random.nextInt(1000)).append('e').append(random.nextInt(400) - 200);
        } else if (roll < 96) {
            out.append("9".repeat(1 + random.nextInt(120)));
        } else {
            out.append(pick(random, "NaN", "Infinity", "-Infinity", "01", "+1", ".5", "1.", "0x10"));
        }
    }

    /** Mostly letters and valid escapes; sometimes C1 and non-Latin characters; rarely raw controls or bad escapes. */
    private static void string(StringBuilder out, Random random) {
        out.append('"');
        int n = random.nextInt(12);
        for (int i = 0; i < n; i++) {
            int roll = random.nextInt(100);
            if (roll < 60) {
                out.append((char) ('a' + random.nextInt(26)));
            } else if (roll < 75) {
                out.append(pick(random, "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u0000",
                        "\\u00e9", "\\u0085", "\\ud800", "\\udc00", "\\ud83d\\ude00", "/", ":", "|", "[", "(", "*"));
            } else if (roll < 85) {
                out.append((char) (0x7f + random.nextInt(0x21)));
            } else if (roll < 95) {
                out.appendCodePoint(0xa0 + random.nextInt(0x10000 - 0xa0));
            } else if (roll < 98) {
                out.append((char) random.nextInt(0x20));
            } else {
                out.append(pick(random, "\\x", "\\u12", "\\"));
            }
        }
        out.append('"');
    }

    private static String pick(Random random, String... choices) {
        return choices[random.nextInt(choices.length)];
    }

    /** The input as text and (for short inputs) hex, for failure messages. */
    static String show(byte[] input) {
        if (input == null) {
            return "null";
        }
        StringBuilder hex = new StringBuilder();
        for (int i = 0; i < Math.min(input.length, 400); i++) {
            hex.append(String.format("%02x", input[i] & 0xff));
        }
        String text = new String(input, StandardCharsets.UTF_8);
        return input.length + " bytes, as UTF-8: <" + (text.length() > 2000 ? text.substring(0, 2000) + "..." : text)
                + ">, hex: " + hex + (input.length > 400 ? "..." : "");
    }
}
