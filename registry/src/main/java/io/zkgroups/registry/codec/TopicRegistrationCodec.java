package io.zkgroups.registry.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.model.TopicRegistration;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;

/**
 * Topic registrations ({@code /brokers/topics/T}). Reads v1 and v2 (ignoring {@code adding_replicas},
 * {@code removing_replicas} and other later keys, keeping {@code topic_id}); writes v1 as 0.8.2.2's
 * {@code AdminUtils} does: <pre>{"version":1,"partitions":{"0":[1,2],"1":[2,3]}}</pre>
 * A registration without {@code partitions} reads as a topic with no partitions, like 0.8.2.2.
 */
public final class TopicRegistrationCodec {

    private static final String WHAT = "topic registration";

    private TopicRegistrationCodec() {
    }

    public static byte[] encode(TopicRegistration topic) {
        StringBuilder json = new StringBuilder("{\"version\":1,\"partitions\":{");
        boolean first = true;
        for (Map.Entry<Integer, List<Integer>> entry : topic.replicaMap().entrySet()) {
            if (!first) {
                json.append(',');
            }
            first = false;
            json.append('"').append(entry.getKey()).append("\":").append(intArray(entry.getValue()));
        }
        json.append("}}");
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    public static TopicRegistration decode(byte[] data) throws DecodeException {
        ObjectNode json = Json.parseObject(data, WHAT);
        int version = Json.optionalInt(json, "version", WHAT).orElse(1);
        TreeMap<Integer, List<Integer>> replicas = new TreeMap<>();
        JsonNode partitions = json.get("partitions");
        if (partitions != null && !partitions.isNull()) {
            if (!partitions.isObject()) {
                throw new DecodeException(WHAT, "\"partitions\" must be an object, got " + Json.describe(partitions));
            }
            Iterator<Map.Entry<String, JsonNode>> fields = partitions.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                OptionalInt partition = ZkLayout.parsePartition(field.getKey());
                if (!partition.isPresent()) {
                    throw new DecodeException(WHAT, "partition key '" + field.getKey() + "' is not a partition number");
                }
                replicas.put(partition.getAsInt(), intList(field.getValue(), "replicas of partition " + field.getKey()));
            }
        }
        return new TopicRegistration(version, replicas, Json.optionalString(json, "topic_id", WHAT));
    }

    /**
     * How many partitions {@link #decode} would find in {@code data}, without building them: a member needs only the
     * count, and a topic of 10,000 partitions decodes into 10,000 replica lists. The common shape is counted in one
     * streaming pass; anything else (a repeated key, a number that is not a plain int, a partition number past
     * {@value #MAX_STREAMED_PARTITION}, bad JSON) is left to {@link #decode}, so both agree on every input, errors
     * included.
     */
    public static int partitionCount(byte[] data) throws DecodeException {
        OptionalInt streamed = streamedCount(data);
        return streamed.isPresent() ? streamed.getAsInt() : decode(data).partitionCount();
    }

    /** Partition numbers up to which {@link #partitionCount} counts in one pass (a bit each). */
    static final int MAX_STREAMED_PARTITION = 1 << 20;

    /** The count of a registration of the common shape; empty for anything {@link #decode} should judge. */
    private static OptionalInt streamedCount(byte[] data) {
        if (data == null || data.length == 0) {
            return OptionalInt.empty();
        }
        try (JsonParser parser = Json.parser(data)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return OptionalInt.empty();
            }
            Set<String> keys = new HashSet<>();
            int count = 0;
            JsonToken token;
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                String key = parser.currentName();
                JsonToken value = parser.nextToken();
                if (!keys.add(key)) {
                    return OptionalInt.empty();
                }
                if (key.equals("version")) {
                    if (value != JsonToken.VALUE_NULL && !plainInt(parser)) {
                        return OptionalInt.empty();
                    }
                } else if (key.equals("topic_id")) {
                    if (value != JsonToken.VALUE_NULL && value != JsonToken.VALUE_STRING) {
                        return OptionalInt.empty();
                    }
                } else if (key.equals("partitions")) {
                    if (value == JsonToken.START_OBJECT) {
                        OptionalInt partitions = streamedPartitions(parser);
                        if (!partitions.isPresent()) {
                            return partitions;
                        }
                        count = partitions.getAsInt();
                    } else if (value != JsonToken.VALUE_NULL) {
                        return OptionalInt.empty();
                    }
                } else {
                    parser.skipChildren(); // later keys (adding_replicas, ...): decode ignores them too
                }
            }
            if (token != JsonToken.END_OBJECT || parser.nextToken() != null) {
                return OptionalInt.empty();
            }
            return OptionalInt.of(count);
        } catch (IOException | RuntimeException e) {
            return OptionalInt.empty(); // decode says what is wrong
        }
    }

    /** The partitions object's entries, each a distinct partition number and an array of ints; the parser is in it. */
    private static OptionalInt streamedPartitions(JsonParser parser) throws IOException {
        BitSet seen = new BitSet();
        int count = 0;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            OptionalInt partition = ZkLayout.parsePartition(parser.currentName());
            if (!partition.isPresent() || partition.getAsInt() > MAX_STREAMED_PARTITION || seen.get(partition.getAsInt())
                    || parser.nextToken() != JsonToken.START_ARRAY) {
                return OptionalInt.empty();
            }
            seen.set(partition.getAsInt());
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                if (!plainInt(parser)) {
                    return OptionalInt.empty(); // not an int, or the data ended inside the array
                }
            }
            count++;
        }
        return parser.currentToken() == JsonToken.END_OBJECT ? OptionalInt.of(count) : OptionalInt.empty();
    }

    private static boolean plainInt(JsonParser parser) throws IOException {
        return parser.currentToken() == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() == JsonParser.NumberType.INT;
    }

    static List<Integer> intList(JsonNode node, String name) throws DecodeException {
        if (!node.isArray()) {
            throw new DecodeException(WHAT, name + " must be an array, got " + Json.describe(node));
        }
        List<Integer> values = new ArrayList<>(node.size());
        for (JsonNode element : node) {
            values.add(Json.asInt(element, name, WHAT));
        }
        return Collections.unmodifiableList(values);
    }

    static String intArray(List<Integer> values) {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(values.get(i));
        }
        return out.append(']').toString();
    }
}
