package io.zkgroups.registry.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.zkgroups.registry.ZkNames;
import io.zkgroups.registry.model.MemberRegistration;
import io.zkgroups.registry.model.Subscription;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Member registrations ({@code /consumers/G/ids/CID}), byte-identical to 0.8.2.2
 * (docs/compatibility.md#member-registrations):
 * <pre>
 * {"version":1,"subscription":{"T1":1,"T2":1},"pattern":"static","timestamp":"1795988925195"}
 * {"version":1,"subscription":{"T1|T\\d":2},"pattern":"white_list","timestamp":"1795988925551"}
 * </pre>
 * Static topics are written unescaped in the caller's order; a wildcard regex is escaped with
 * 0.8.2.2's {@code JSONEscapeString}. Non-empty capabilities go under one extra key, {@value #CAPABILITIES_KEY},
 * which 0.8.2.2 readers ignore. Every number written fits Int32 (0.8.2.2 readers throw otherwise).
 * <p>
 * Reading follows 0.8.2.2's {@code TopicCount.constructTopicCount}: {@code pattern} and
 * {@code subscription} are required; an empty subscription or a pattern other than
 * {@code white_list}/{@code black_list} means static; a wildcard's regex is the first entry's key. One exception, for
 * clients that subscribe by name but write {@code white_list} (kafka-node's HighLevelConsumer:
 * {@code {"version":1,"subscription":{"T1": 1, "T2": 1},"pattern":"white_list",...}}): a {@code white_list} of
 * several entries, all topic names, is those topics (0.8.2.2 writes one entry per wildcard). A registration
 * declaring more than {@link Subscription#MAX_STREAMS} streams is rejected, as malformed (0.8.2.2 would allocate
 * one row per stream, and a group with such a member stops rebalancing for lack of memory).
 */
public final class MemberRegistrationCodec {

    public static final String CAPABILITIES_KEY = "zkgroups";
    private static final String WHAT = "member registration";

    private MemberRegistrationCodec() {
    }

    public static byte[] encode(MemberRegistration registration) {
        StringBuilder json = new StringBuilder("{\"version\":1,\"subscription\":{");
        Subscription subscription = registration.subscription();
        if (subscription instanceof Subscription.Static) {
            Subscription.Static s = (Subscription.Static) subscription;
            boolean first = true;
            for (Map.Entry<String, Integer> entry : s.streamsPerTopic().entrySet()) {
                if (!first) {
                    json.append(',');
                }
                first = false;
                json.append('"').append(entry.getKey()).append("\":").append(entry.getValue());
            }
        } else if (subscription instanceof Subscription.Wildcard) {
            Subscription.Wildcard w = (Subscription.Wildcard) subscription;
            json.append(Json.quote(w.regex())).append(':').append(w.streams());
        }
        json.append("},\"pattern\":\"").append(subscription.pattern())
                .append("\",\"timestamp\":").append(Json.quote(registration.timestamp()));
        if (!registration.capabilities().isEmpty()) {
            json.append(",\"").append(CAPABILITIES_KEY).append("\":{");
            boolean first = true;
            for (Map.Entry<String, String> entry : registration.capabilities().entrySet()) {
                if (!first) {
                    json.append(',');
                }
                first = false;
                json.append(Json.quote(entry.getKey())).append(':').append(Json.quote(entry.getValue()));
            }
            json.append('}');
        }
        return json.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    public static MemberRegistration decode(byte[] data) throws DecodeException {
        ObjectNode json = Json.parseObject(data, WHAT);
        JsonNode pattern = json.get("pattern");
        JsonNode subscription = json.get("subscription");
        if (pattern == null || !pattern.isTextual()) {
            throw new DecodeException(WHAT, "missing or non-string \"pattern\"");
        }
        if (subscription == null || !subscription.isObject()) {
            throw new DecodeException(WHAT, "missing or non-object \"subscription\"");
        }
        String timestamp = Json.optionalScalarText(json, "timestamp").orElse("");
        return new MemberRegistration(subscription(pattern.textValue(), subscription), timestamp, capabilities(json));
    }

    private static Subscription subscription(String pattern, JsonNode entries) throws DecodeException {
        Iterator<Map.Entry<String, JsonNode>> fields = entries.fields();
        boolean wildcard = entries.size() > 0 && (pattern.equals("white_list") || pattern.equals("black_list"))
                && !(pattern.equals("white_list") && isListOfTopics(entries));
        if (wildcard) {
            Map.Entry<String, JsonNode> first = fields.next();
            int streams = streams(first.getKey(), first.getValue());
            try {
                return pattern.equals("white_list")
                        ? new Subscription.Wildcard(Subscription.Wildcard.Kind.WHITE_LIST, first.getKey(), streams)
                        : new Subscription.Wildcard(Subscription.Wildcard.Kind.BLACK_LIST, first.getKey(), streams);
            } catch (IllegalArgumentException e) {
                throw new DecodeException(WHAT, e.getMessage());
            }
        }
        LinkedHashMap<String, Integer> topics = new LinkedHashMap<>();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!ZkNames.isValid(field.getKey())) {
                throw new DecodeException(WHAT, "subscribed topic '" + field.getKey() + "' is not a valid topic name");
            }
            topics.put(field.getKey(), streams(field.getKey(), field.getValue()));
        }
        try {
            return Subscription.topics(topics);
        } catch (IllegalArgumentException e) {
            throw new DecodeException(WHAT, e.getMessage());
        }
    }

    /** Several entries, each a topic name: what a client that subscribes by name writes. */
    private static boolean isListOfTopics(JsonNode entries) {
        if (entries.size() < 2) {
            return false;
        }
        Iterator<String> names = entries.fieldNames();
        while (names.hasNext()) {
            if (!ZkNames.isValid(names.next())) {
                return false;
            }
        }
        return true;
    }

    private static int streams(String key, JsonNode value) throws DecodeException {
        int streams = Json.asInt(value, "stream count of '" + key + "'", WHAT);
        if (streams < 0) {
            throw new DecodeException(WHAT, "stream count of '" + key + "' is negative: " + streams);
        }
        return streams;
    }

    private static Map<String, String> capabilities(ObjectNode json) {
        JsonNode node = json.get(CAPABILITIES_KEY);
        Map<String, String> capabilities = new LinkedHashMap<>();
        if (node != null && node.isObject()) {
            node.fields().forEachRemaining(field -> {
                if (field.getValue().isTextual()) {
                    capabilities.put(field.getKey(), field.getValue().textValue());
                }
            });
        }
        return capabilities;
    }
}
