package io.zkgroups.registry.codec;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Finds the JSON number tokens of a text, skipping string literals (a grep that knows about quotes). */
final class JsonNumbers {

    private static final Pattern STRING_LITERAL = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"", Pattern.DOTALL);
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?");
    private static final Pattern INTEGER = Pattern.compile("-?\\d+");
    private static final BigInteger MIN = BigInteger.valueOf(Integer.MIN_VALUE);
    private static final BigInteger MAX = BigInteger.valueOf(Integer.MAX_VALUE);

    private JsonNumbers() {
    }

    static List<String> numbersOutsideStrings(String json) {
        String withoutStrings = STRING_LITERAL.matcher(json).replaceAll("\"\"");
        List<String> numbers = new ArrayList<>();
        Matcher matcher = NUMBER.matcher(withoutStrings);
        while (matcher.find()) {
            numbers.add(matcher.group());
        }
        return numbers;
    }

    /** True for an integer literal within Int32, the only numbers 0.8.2.2's JSON parser accepts. */
    static boolean isInt32(String number) {
        if (!INTEGER.matcher(number).matches()) {
            return false;
        }
        BigInteger value = new BigInteger(number);
        return value.compareTo(MIN) >= 0 && value.compareTo(MAX) <= 0;
    }
}
