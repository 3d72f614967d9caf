package io.zkgroups.registry.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.zkgroups.registry.model.CoordinationDecision;
import io.zkgroups.registry.model.Coordinator;

import java.nio.charset.StandardCharsets;

/**
 * The coordination decision ({@code /consumers/G/zkgroups-coordination}):
 * {@code {"version":1,"coordinator":"kafka","timestamp":"1795988925195"}}, keys in this order, no whitespace.
 */
public final class CoordinationCodec {

    private static final String WHAT = "coordination decision";

    private CoordinationCodec() {
    }

    public static byte[] encode(CoordinationDecision decision) {
        return ("{\"version\":1,\"coordinator\":\"" + decision.coordinator().label() + "\",\"timestamp\":\""
                + decision.decidedAtMillis() + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    /** @throws DecodeException if it is not such an object, or names a coordinator this version does not know */
    public static CoordinationDecision decode(byte[] data) throws DecodeException {
        ObjectNode json = Json.parseObject(data, WHAT);
        JsonNode coordinator = json.get("coordinator");
        if (coordinator == null || !coordinator.isTextual()) {
            throw new DecodeException(WHAT, "no \"coordinator\" string");
        }
        Coordinator parsed = Coordinator.parse(coordinator.textValue()).orElseThrow(() ->
                new DecodeException(WHAT, "unknown coordinator '" + coordinator.textValue()
                        + "' (this version knows zookeeper and kafka)"));
        JsonNode timestamp = json.get("timestamp");
        long at = 0;
        if (timestamp != null) {
            try {
                at = Long.parseLong(timestamp.asText());
            } catch (NumberFormatException e) {
                throw new DecodeException(WHAT, "timestamp '" + timestamp.asText() + "' is not a number");
            }
        }
        return new CoordinationDecision(parsed, at);
    }
}
