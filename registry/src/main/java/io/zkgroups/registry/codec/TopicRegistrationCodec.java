package io.zkgroups.registry.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.model.TopicRegistration;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
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

    static List<Integer> intList(JsonNode node, String name) throws DecodeException {
        if (!node.isArray()) {
            throw new DecodeException(WHAT, name + " must be an array, got " + Json.describe(node));
        }
        ImmutableList.Builder<Integer> values = ImmutableList.builderWithExpectedSize(node.size());
        for (JsonNode element : node) {
            values.add(Json.asInt(element, name, WHAT));
        }
        return values.build(); // immutable already: the registration keeps it without a copy
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
