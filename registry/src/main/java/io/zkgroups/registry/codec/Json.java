package io.zkgroups.registry.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.Optional;

/**
 * JSON reading for the codecs (Jackson, strict about structure, tolerant about unknown keys) and the
 * string escaping 0.8.2.2 uses when it writes ({@code kafka.utils.Utils.JSONEscapeString}).
 * Writing is done by hand in each codec: 0.8.2.2 readers care about exact shapes and key order is part
 * of byte-compatibility.
 * <p>
 * The tree is built from jackson-core's streaming parser, as {@code ObjectMapper.readTree} builds it (integers as
 * int, long or big-integer nodes by size, other numbers as doubles, a repeated key's last value) but without an
 * {@code ObjectMapper}: setting one up (class loading and initialisation) is most of what a fresh process pays for its
 * first decode, and every joining member and every CLI run is a fresh process.
 */
final class Json {

    private static final JsonFactory FACTORY = JsonFactory.builder()
            // Names are not interned or pooled: a topic of 10,000 partitions has 10,000 of them, each seen once.
            .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
            .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(64)
                    .maxStringLength(1 << 20)
                    .maxNumberLength(64)
                    .build())
            .build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

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
            node = readTree(data);
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

    /** The whole of {@code data} as one JSON value (null if there is none); anything after it is an error. */
    /** A streaming parser of {@code data}, under the same limits as {@link #parseObject}. */
    static JsonParser parser(byte[] data) throws IOException {
        return FACTORY.createParser(data);
    }

    private static JsonNode readTree(byte[] data) throws IOException {
        try (JsonParser parser = FACTORY.createParser(data)) {
            if (parser.nextToken() == null) {
                return null;
            }
            JsonNode root = value(parser);
            if (parser.nextToken() != null) {
                throw new JsonParseException(parser, "trailing token (" + parser.currentToken()
                        + ") after the root value");
            }
            return root;
        }
    }

    /** The value that starts at the parser's current token (nesting is bounded by the factory's constraints). */
    private static JsonNode value(JsonParser parser) throws IOException {
        switch (parser.currentToken()) {
            case START_OBJECT: {
                ObjectNode object = NODES.objectNode();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    parser.nextToken();
                    object.set(name, value(parser));
                }
                return object;
            }
            case START_ARRAY: {
                ArrayNode array = NODES.arrayNode();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    array.add(value(parser));
                }
                return array;
            }
            case VALUE_STRING:
                return NODES.textNode(parser.getText());
            case VALUE_NUMBER_INT:
                return integer(parser);
            case VALUE_NUMBER_FLOAT:
                return NODES.numberNode(parser.getDoubleValue());
            case VALUE_TRUE:
                return NODES.booleanNode(true);
            case VALUE_FALSE:
                return NODES.booleanNode(false);
            case VALUE_NULL:
                return NODES.nullNode();
            default:
                throw new JsonParseException(parser, "unexpected token " + parser.currentToken());
        }
    }

    private static JsonNode integer(JsonParser parser) throws IOException {
        switch (parser.getNumberType()) {
            case INT:
                return NODES.numberNode(parser.getIntValue());
            case LONG:
                return NODES.numberNode(parser.getLongValue());
            default:
                return NODES.numberNode(parser.getBigIntegerValue());
        }
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
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '/':
                    out.append("\\/");
                    break;
                case '\b':
                    out.append("\\b");
                    break;
                case '\f':
                    out.append("\\f");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                default:
                    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
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
