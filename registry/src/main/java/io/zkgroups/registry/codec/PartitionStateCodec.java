package io.zkgroups.registry.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.zkgroups.registry.model.PartitionState;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;

/**
 * Partition state ({@code /brokers/topics/T/partitions/P/state}), written by the controller:
 * <pre>{"controller_epoch":7,"leader":1,"version":1,"leader_epoch":5,"isr":[1,2]}</pre>
 */
public final class PartitionStateCodec {

    private static final String WHAT = "partition state";

    private PartitionStateCodec() {
    }

    public static byte[] encode(PartitionState state) {
        String json = "{\"controller_epoch\":" + state.controllerEpoch()
                + ",\"leader\":" + state.leader()
                + ",\"version\":1"
                + ",\"leader_epoch\":" + state.leaderEpoch()
                + ",\"isr\":" + TopicRegistrationCodec.intArray(state.isr()) + "}";
        return json.getBytes(StandardCharsets.UTF_8);
    }

    public static PartitionState decode(byte[] data) throws DecodeException {
        ObjectNode json = Json.parseObject(data, WHAT);
        int leader = Json.requireInt(json, "leader", WHAT);
        int controllerEpoch = Json.optionalInt(json, "controller_epoch", WHAT).orElse(-1);
        int leaderEpoch = Json.optionalInt(json, "leader_epoch", WHAT).orElse(-1);
        JsonNode isr = json.get("isr");
        List<Integer> isrList = isr == null || isr.isNull() ? Collections.emptyList() : isrList(isr);
        return new PartitionState(controllerEpoch, leader, leaderEpoch, isrList);
    }

    private static List<Integer> isrList(JsonNode isr) throws DecodeException {
        try {
            return TopicRegistrationCodec.intList(isr, "\"isr\"");
        } catch (DecodeException e) {
            throw new DecodeException(WHAT, e.reason());
        }
    }
}
