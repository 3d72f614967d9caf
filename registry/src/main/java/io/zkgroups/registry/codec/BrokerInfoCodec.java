package io.zkgroups.registry.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.zkgroups.registry.model.BrokerInfo;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Broker registrations ({@code /brokers/ids/N}). Reads every version 1–5 (0.8 to 3.9 brokers) and keeps
 * going on unknown keys; writes version 1 exactly as a 0.8.2.2 broker does:
 * <pre>{"jmx_port":9999,"timestamp":"1795989019637","host":"broker3.example.com","version":1,"port":9092}</pre>
 */
public final class BrokerInfoCodec {

    private static final String WHAT = "broker registration";

    private BrokerInfoCodec() {
    }

    public static byte[] encode(BrokerInfo broker) {
        if (!broker.hasPlaintextEndpoint()) {
            throw new IllegalArgumentException("a v1 broker registration needs a host and a port: " + broker);
        }
        String json = "{\"jmx_port\":" + broker.jmxPort()
                + ",\"timestamp\":" + Json.quote(broker.timestamp())
                + ",\"host\":" + Json.quote(broker.host())
                + ",\"version\":1"
                + ",\"port\":" + broker.port() + "}";
        return json.getBytes(StandardCharsets.UTF_8);
    }

    public static BrokerInfo decode(int brokerId, byte[] data) throws DecodeException {
        ObjectNode json = Json.parseObject(data, WHAT);
        String host = Json.optionalString(json, "host", WHAT).orElse(null);
        int port = Json.optionalInt(json, "port", WHAT).orElse(-1);
        String timestamp = Json.optionalScalarText(json, "timestamp").orElse("");
        boolean usable = host != null && !host.isEmpty() && port >= 0;
        // 0.8.2.2 reads only host and port: when they are usable, a malformed later field must not make the
        // broker unreadable, it is dropped instead.
        int version = lenient(usable, () -> Json.optionalInt(json, "version", WHAT).orElse(1), 1);
        int jmxPort = lenient(usable, () -> Json.optionalInt(json, "jmx_port", WHAT).orElse(-1), -1);
        Optional<String> rack = lenient(usable, () -> Json.optionalString(json, "rack", WHAT), Optional.empty());
        List<BrokerInfo.Endpoint> endpoints = lenient(usable, () -> endpoints(json, protocolMap(json)), Collections.emptyList());
        if (host == null && port < 0 && endpoints.isEmpty()) {
            throw new DecodeException(WHAT, "no \"host\"/\"port\" and no \"endpoints\"");
        }
        return new BrokerInfo(brokerId, host, port, version, jmxPort, timestamp, endpoints, rack);
    }

    private interface Field<T> {
        T read() throws DecodeException;
    }

    private static <T> T lenient(boolean tolerate, Field<T> field, T fallback) throws DecodeException {
        try {
            return field.read();
        } catch (DecodeException e) {
            if (tolerate) {
                return fallback;
            }
            throw e;
        }
    }

    private static Map<String, String> protocolMap(ObjectNode json) throws DecodeException {
        JsonNode node = json.get("listener_security_protocol_map");
        Map<String, String> map = new HashMap<>();
        if (node == null || node.isNull()) {
            return map;
        }
        if (!node.isObject()) {
            throw new DecodeException(WHAT, "\"listener_security_protocol_map\" must be an object");
        }
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!field.getValue().isTextual()) {
                throw new DecodeException(WHAT, "protocol of listener " + field.getKey() + " must be a string");
            }
            map.put(field.getKey(), field.getValue().textValue());
        }
        return map;
    }

    private static List<BrokerInfo.Endpoint> endpoints(ObjectNode json, Map<String, String> protocols)
            throws DecodeException {
        JsonNode node = json.get("endpoints");
        List<BrokerInfo.Endpoint> endpoints = new ArrayList<>();
        if (node == null || node.isNull()) {
            return endpoints;
        }
        if (!node.isArray()) {
            throw new DecodeException(WHAT, "\"endpoints\" must be an array");
        }
        for (JsonNode entry : node) {
            if (!entry.isTextual()) {
                throw new DecodeException(WHAT, "endpoint " + Json.describe(entry) + " is not a string");
            }
            endpoints.add(parseEndpoint(entry.textValue(), protocols));
        }
        return endpoints;
    }

    /** {@code LISTENER://host:port}, host possibly empty (all interfaces) or a bracketed IPv6 literal. */
    static BrokerInfo.Endpoint parseEndpoint(String text, Map<String, String> protocols) throws DecodeException {
        int sep = text.indexOf("://");
        int colon = text.lastIndexOf(':');
        if (sep <= 0 || colon <= sep + 2) {
            throw new DecodeException(WHAT, "endpoint '" + text + "' is not LISTENER://host:port");
        }
        String listener = text.substring(0, sep);
        String host = text.substring(sep + 3, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new DecodeException(WHAT, "endpoint '" + text + "' has no numeric port");
        }
        if (port < 0 || port > 65535) {
            throw new DecodeException(WHAT, "endpoint '" + text + "' has port out of range");
        }
        String protocol = protocols.getOrDefault(listener, listener.toUpperCase(Locale.ROOT));
        return new BrokerInfo.Endpoint(listener, protocol, host, port);
    }
}
