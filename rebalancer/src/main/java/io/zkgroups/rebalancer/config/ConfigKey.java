package io.zkgroups.rebalancer.config;

import java.util.Objects;
import java.util.function.Function;

/**
 * One row of a configuration table: a key, its default (a literal, another key's value, computed, or none), how its
 * value is checked, where it belongs and what it means.
 */
public final class ConfigKey {

    /** How a key's default is found from the other effective values. */
    @FunctionalInterface
    public interface Default {
        /** The default, or null if there is none; {@code effective} gives any other key's effective value. */
        String value(Function<String, String> effective);
    }

    private final String name;
    private final boolean required;
    private final Default defaultValue;
    private final String defaultDoc;
    private final Validator validator;
    private final ConfigSection section;
    private final String doc;

    private ConfigKey(String name, boolean required, Default defaultValue, String defaultDoc, Validator validator,
                      ConfigSection section, String doc) {
        this.name = Objects.requireNonNull(name, "name cannot be null");
        this.required = required;
        this.defaultValue = Objects.requireNonNull(defaultValue, "default cannot be null");
        this.defaultDoc = Objects.requireNonNull(defaultDoc, "default doc cannot be null");
        this.validator = Objects.requireNonNull(validator, "validator cannot be null");
        this.section = Objects.requireNonNull(section, "section cannot be null");
        this.doc = Objects.requireNonNull(doc, "doc cannot be null");
    }

    /** A key with a literal default ({@code ""} counts as a value: an empty setting). */
    public static ConfigKey of(String name, String defaultValue, Validator validator, ConfigSection section, String doc) {
        Objects.requireNonNull(defaultValue, "default cannot be null");
        return new ConfigKey(name, false, effective -> defaultValue, defaultValue.isEmpty() ? "(none)" : defaultValue,
                validator, section, doc);
    }

    /** A key whose default is {@code other}'s effective value. */
    public static ConfigKey sameAs(String name, String other, Validator validator, ConfigSection section, String doc) {
        return new ConfigKey(name, false, effective -> effective.apply(other), "`" + other + "`", validator, section, doc);
    }

    /** A key whose default is computed; {@code defaultDoc} says how, for the docs. */
    public static ConfigKey computed(String name, Default defaultValue, String defaultDoc, Validator validator,
                                     ConfigSection section, String doc) {
        return new ConfigKey(name, false, defaultValue, defaultDoc, validator, section, doc);
    }

    /** A key that must be set. */
    public static ConfigKey required(String name, Validator validator, ConfigSection section, String doc) {
        return new ConfigKey(name, true, effective -> null, "required", validator, section, doc);
    }

    /** A key without a default: unset unless given. */
    public static ConfigKey optional(String name, Validator validator, ConfigSection section, String doc) {
        return new ConfigKey(name, false, effective -> null, "unset", validator, section, doc);
    }

    public String name() {
        return name;
    }

    /** The default given the other effective values; null if the key has none. */
    public String defaultValue(Function<String, String> effective) {
        return defaultValue.value(effective);
    }

    /** The default as the docs state it: the literal, {@code `other.key`}, {@code required}, {@code unset}, .... */
    public String defaultDoc() {
        return defaultDoc;
    }

    /** Whether the key must be set. */
    public boolean isRequired() {
        return required;
    }

    public Validator validator() {
        return validator;
    }

    public ConfigSection section() {
        return section;
    }

    /** What the key means. */
    public String doc() {
        return doc;
    }

    @Override
    public String toString() {
        return name;
    }
}
