package io.zkgroups.registry.codec;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.Optional;

/**
 * JSON reading for the codecs (Jackson, strict about structure, tolerant about unknown keys) and the
 * string escaping 0.8.2.2 uses when it writes ({@code kafka.utils.Utils.JSONEscapeString}).
 * Writing is done by hand in each codec: 0.8.2.2 readers care about exact shapes and key order is part
 * of byte-compatibility.
 */
final class Json {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(64)
                .maxStringLength(1 << 20)
                .maxNumberLength(64)
                .build());
    }

    private Json() {
    }

    /** Parses {@code data} as a JSON object, or fails with a {@link DecodeException} about {@code what}. */
    static ObjectNode parseObject(byte[] data, String what) throws DecodeException {
        if (data == null) {
            throw new DecodeException(what, "the znode has no data");
        }
        if (data.length == 0) {
            throw new DecodeException(what, "the znode data is empty");
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(data);
        } catch (JsonProcessingException e) {
            throw new DecodeException(what, "not valid JSON (" + e.getOriginalMessage() + ")", e);
        } catch (IOException | RuntimeException e) {
            throw new DecodeException(what, "not valid JSON (" + e.getMessage() + ")", e);
        }
        if (node == null || !node.isObject()) {
            throw new DecodeException(what, "expected a JSON object, got " + describe(node));
        }
        return (ObjectNode) node;
    }

    static int requireInt(ObjectNode node, String field, String what) throws DecodeException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new DecodeException(what, "missing \"" + field + "\"");
        }
        return asInt(value, "\"" + field + "\"", what);
    }

    static int asInt(JsonNode value, String name, String what) throws DecodeException {
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new DecodeException(what, name + " must be an integer within Int32, got " + describe(value));
        }
        return value.intValue();
    }

    static Optional<Integer> optionalInt(ObjectNode node, String field, String what) throws DecodeException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        return Optional.of(asInt(value, "\"" + field + "\"", what));
    }

    /** A string field; absent and JSON null both read as empty. */
    static Optional<String> optionalString(ObjectNode node, String field, String what) throws DecodeException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw new DecodeException(what, "\"" + field + "\" must be a string, got " + describe(value));
        }
        return Optional.of(value.textValue());
    }

    /** A scalar read as text whatever its JSON type (0.8 timestamps are strings, some writers use numbers). */
    static Optional<String> optionalScalarText(ObjectNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull() || value.isContainerNode()) {
            return Optional.empty();
        }
        return Optional.of(value.asText());
    }

    static String describe(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        String text = node.toString();
        String shown = text.length() > 60 ? text.substring(0, 57) + "..." : text;
        return node.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " " + shown;
    }

    /**
     * 0.8.2.2's {@code JSONEscapeString}: escapes {@code " \ /}, the short escapes {@code \b \f \n \r \t},
     * and control characters U+0000–U+001F and U+007F–U+009F as {@code \}{@code uXXXX}.
     */
    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '/' -> out.append("\\/");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    /** A JSON string literal of {@code s}, escaped like 0.8.2.2. */
    static String quote(String s) {
        return "\"" + escape(s) + "\"";
    }
}
