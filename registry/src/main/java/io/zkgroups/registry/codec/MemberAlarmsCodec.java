package io.zkgroups.registry.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.zkgroups.registry.store.Unreadable;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a zkgroups member cannot do now, as it publishes it for the tools ({@code /consumers/G/zkgroups-alarms/CID}):
 * {@code {"version":1,"alarms":[{"path":"kafka:t-0","reason":"cannot be fetched: ..."}]}}. A zkgroups znode only:
 * 0.8.2.2 never reads it, so unknown keys are ignored and the shape may grow.
 * <p>
 * An alarm whose reason starts with {@value #RESTORED_REWIND} is a notice, not a fault: another writer rewound an
 * offset the member owns and the member wrote its own back. The group is whole again; the tools report it without
 * failing {@code health}.
 */
public final class MemberAlarmsCodec {

    /** How the reason of a restored rewind begins (see {@link #isRestoredRewind}). */
    public static final String RESTORED_REWIND = "offset written back to ";

    private static final String WHAT = "member alarms";

    private MemberAlarmsCodec() {
    }

    /** Whether {@code alarm} tells of a rewind the member already repaired, rather than of something it cannot do now. */
    public static boolean isRestoredRewind(Unreadable alarm) {
        return alarm.reason() != null && alarm.reason().startsWith(RESTORED_REWIND);
    }

    public static byte[] encode(List<Unreadable> alarms) {
        StringBuilder json = new StringBuilder("{\"version\":1,\"alarms\":[");
        for (int i = 0; i < alarms.size(); i++) {
            Unreadable alarm = alarms.get(i);
            json.append(i == 0 ? "" : ",")
                    .append("{\"path\":").append(Json.quote(alarm.path()))
                    .append(",\"reason\":").append(Json.quote(alarm.reason())).append('}');
        }
        return json.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    public static List<Unreadable> decode(byte[] data) throws DecodeException {
        ObjectNode root = Json.parseObject(data, WHAT);
        JsonNode alarms = root.get("alarms");
        if (alarms == null || !alarms.isArray()) {
            throw new DecodeException(WHAT, "'alarms' is missing or not a list");
        }
        List<Unreadable> decoded = new ArrayList<>();
        for (JsonNode alarm : alarms) {
            if (!alarm.isObject()) {
                throw new DecodeException(WHAT, "an alarm is " + Json.describe(alarm) + ", not an object");
            }
            String path = Json.optionalString((ObjectNode) alarm, "path", WHAT)
                    .orElseThrow(() -> new DecodeException(WHAT, "an alarm has no 'path'"));
            String reason = Json.optionalString((ObjectNode) alarm, "reason", WHAT).orElse("");
            decoded.add(new Unreadable(path, reason));
        }
        return Collections.unmodifiableList(decoded);
    }
}
