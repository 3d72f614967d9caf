package kafka.utils;

import java.util.Properties;

/**
 * Typed reads of a {@link Properties} (0.8.2.2 {@code VerifiableProperties}), without the methods whose 0.8 signatures
 * use Scala types ({@code getIntInRange}, {@code getShortInRange}, {@code getLongInRange}) or the producer's
 * compression codecs. A missing required property or a bad number fails naming the property and the value.
 */
public class VerifiableProperties {

    private final Properties props;

    public VerifiableProperties(Properties props) {
        this.props = props;
    }

    public VerifiableProperties() {
        this(new Properties());
    }

    public Properties props() {
        return props;
    }

    public boolean containsKey(String name) {
        return props.containsKey(name);
    }

    public String getProperty(String name) {
        return props.getProperty(name);
    }

    /** @throws IllegalArgumentException if the property is missing or not an int */
    public int getInt(String name) {
        return (int) parse(name, require(name), Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    public int getInt(String name, int defaultValue) {
        return containsKey(name) ? getInt(name) : defaultValue;
    }

    public short getShort(String name, short defaultValue) {
        return containsKey(name) ? (short) parse(name, require(name), Short.MIN_VALUE, Short.MAX_VALUE) : defaultValue;
    }

    public long getLong(String name) {
        return parse(name, require(name), Long.MIN_VALUE, Long.MAX_VALUE);
    }

    public long getLong(String name, long defaultValue) {
        return containsKey(name) ? getLong(name) : defaultValue;
    }

    public double getDouble(String name) {
        String value = require(name);
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("property " + name + " must be a number, got '" + value + "'");
        }
    }

    public double getDouble(String name, double defaultValue) {
        return containsKey(name) ? getDouble(name) : defaultValue;
    }

    /** @throws IllegalArgumentException if the value is neither {@code true} nor {@code false} */
    public boolean getBoolean(String name) {
        String value = require(name);
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException("property " + name + " must be true or false, got '" + value + "'");
        }
        return Boolean.parseBoolean(value);
    }

    public boolean getBoolean(String name, boolean defaultValue) {
        return containsKey(name) ? getBoolean(name) : defaultValue;
    }

    public String getString(String name) {
        return require(name);
    }

    public String getString(String name, String defaultValue) {
        return containsKey(name) ? getProperty(name) : defaultValue;
    }

    /** 0.8.2.2 logs the properties it did not read; this bridge's consumer config warns about unknown keys instead. */
    public void verify() {
    }

    @Override
    public String toString() {
        return props.toString();
    }

    private String require(String name) {
        String value = props.getProperty(name);
        if (value == null) {
            throw new IllegalArgumentException("Missing required property '" + name + "'");
        }
        return value;
    }

    private static long parse(String name, String value, long min, long max) {
        try {
            long parsed = Long.parseLong(value.trim());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("property " + name + " must be an integer in [" + min + ", " + max
                + "], got '" + value + "'");
    }
}
