package io.zkgroups.registry;

import java.util.regex.Pattern;

/**
 * Validation of the names that become znode path segments: group ids, topics, client ids, consumer ids.
 * 0.8.2.2 allows {@code [a-zA-Z0-9._-]}; we also reject the empty name and {@code .}/{@code ..}, which
 * ZooKeeper cannot store as a node name, and names over 255 characters.
 */
public final class ZkNames {

    private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]+");
    public static final int MAX_LENGTH = 255;

    private ZkNames() {
    }

    /** Returns {@code value} if it is a legal name, else throws an {@link InvalidNameException} naming it. */
    public static String requireValid(String kind, String value) {
        String problem = problem(value);
        if (problem != null) {
            throw new InvalidNameException(kind, value, problem);
        }
        return value;
    }

    public static boolean isValid(String value) {
        return problem(value) == null;
    }

    private static String problem(String value) {
        if (value == null) {
            return "it is missing";
        }
        if (value.isEmpty()) {
            return "it is empty";
        }
        if (value.equals(".") || value.equals("..")) {
            return "'.' and '..' are not allowed";
        }
        if (value.length() > MAX_LENGTH) {
            return "it is longer than " + MAX_LENGTH + " characters";
        }
        if (!LEGAL.matcher(value).matches()) {
            return "only ASCII letters, digits, '.', '_' and '-' are allowed";
        }
        return null;
    }

    /** A name that cannot be a znode path segment in the 0.8 layout. */
    public static final class InvalidNameException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final String kind;
        private final String value;

        InvalidNameException(String kind, String value, String problem) {
            super("invalid " + kind + " '" + printable(value) + "': " + problem);
            this.kind = kind;
            this.value = value;
        }

        public String kind() {
            return kind;
        }

        public String value() {
            return value;
        }

        private static String printable(String value) {
            if (value == null) {
                return "null";
            }
            StringBuilder out = new StringBuilder();
            value.codePoints().limit(300).forEach(cp -> {
                if (cp < 0x20 || cp == 0x7f) {
                    out.append(String.format("\\u%04x", cp));
                } else {
                    out.appendCodePoint(cp);
                }
            });
            return out.toString();
        }
    }
}
