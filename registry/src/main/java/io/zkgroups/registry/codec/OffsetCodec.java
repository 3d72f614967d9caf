package io.zkgroups.registry.codec;

import java.nio.charset.StandardCharsets;

/**
 * Offsets ({@code /consumers/G/offsets/T/P}): decimal ASCII of the next offset to consume, no JSON,
 * no newline, exactly as 0.8.2.2 writes. Reading tolerates surrounding whitespace (files imported by
 * hand end in a newline) but nothing else.
 */
public final class OffsetCodec {

    private static final String WHAT = "offset";

    private OffsetCodec() {
    }

    public static byte[] encode(long offset) {
        return Long.toString(offset).getBytes(StandardCharsets.US_ASCII);
    }

    public static long decode(byte[] data) throws DecodeException {
        if (data == null) {
            throw new DecodeException(WHAT, "the znode has no data");
        }
        String text = new String(data, StandardCharsets.UTF_8).trim();
        if (text.isEmpty()) {
            throw new DecodeException(WHAT, "the znode data is empty");
        }
        int start = text.charAt(0) == '-' ? 1 : 0;
        if (start == text.length() || !text.substring(start).chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new DecodeException(WHAT, "'" + shorten(text) + "' is not a decimal number");
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new DecodeException(WHAT, "'" + shorten(text) + "' does not fit in 64 bits");
        }
    }

    private static String shorten(String text) {
        return text.length() > 40 ? text.substring(0, 37) + "..." : text;
    }
}
