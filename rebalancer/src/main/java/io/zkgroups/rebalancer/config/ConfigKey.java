package io.zkgroups.rebalancer.config;

import org.apache.kafka.common.config.ConfigDef;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One row of a configuration table: a key, its type, its default (a literal, another key's value, computed, or none),
 * how its value is checked, its name in Kafka's consumer if Kafka has the same setting, where it belongs and what it
 * means.
 */
public final class ConfigKey {

    /** How a key's default is found from the other effective values. */
    @FunctionalInterface
    public interface Default {
        /** The default, or null if there is none; {@code effective} gives any other key's typed effective value. */
        Object value(Function<String, Object> effective);
    }

    private final String name;
    private final ConfigDef.Type type;
    private final boolean required;
    /** The typed literal default; null for none or for a derived one. */
    private final Object literal;
    private final Default derived;
    private final String defaultDoc;
    private final ConfigDef.Validator validator;
    private final ConfigSection section;
    private final String doc;
    private final String kafkaName;
    private final boolean fetchSide;

    private ConfigKey(String name, ConfigDef.Type type, boolean required, Object literal, Default derived,
                      String defaultDoc, ConfigDef.Validator validator, ConfigSection section, String doc,
                      String kafkaName, boolean fetchSide) {
        this.name = Objects.requireNonNull(name, "name cannot be null");
        this.type = Objects.requireNonNull(type, "type cannot be null");
        this.required = required;
        this.literal = literal;
        this.derived = derived;
        this.defaultDoc = Objects.requireNonNull(defaultDoc, "default doc cannot be null");
        this.validator = validator;
        this.section = Objects.requireNonNull(section, "section cannot be null");
        this.doc = Objects.requireNonNull(doc, "doc cannot be null");
        this.kafkaName = kafkaName;
        this.fetchSide = fetchSide;
    }

    /** A key with a literal default, written as in a properties file ({@code ""} counts as a value). */
    public static ConfigKey of(String name, ConfigDef.Type type, String defaultValue, ConfigDef.Validator validator,
                               ConfigSection section, String doc) {
        Objects.requireNonNull(defaultValue, "default cannot be null");
        return new ConfigKey(name, type, false, ConfigDef.parseType(name, defaultValue, type), null,
                defaultValue.isEmpty() ? "(none)" : defaultValue, validator, section, doc, null, false);
    }

    /** A key whose default is {@code other}'s effective value. */
    public static ConfigKey sameAs(String name, ConfigDef.Type type, String other, ConfigDef.Validator validator,
                                   ConfigSection section, String doc) {
        return new ConfigKey(name, type, false, null, effective -> effective.apply(other), "`" + other + "`",
                validator, section, doc, null, false);
    }

    /** A key whose default is computed; {@code defaultDoc} says how, for the docs. */
    public static ConfigKey computed(String name, ConfigDef.Type type, Default defaultValue, String defaultDoc,
                                     ConfigDef.Validator validator, ConfigSection section, String doc) {
        return new ConfigKey(name, type, false, null, Objects.requireNonNull(defaultValue, "default cannot be null"),
                defaultDoc, validator, section, doc, null, false);
    }

    /** A key that must be set. */
    public static ConfigKey required(String name, ConfigDef.Type type, ConfigDef.Validator validator,
                                     ConfigSection section, String doc) {
        return new ConfigKey(name, type, true, null, null, "required", validator, section, doc, null, false);
    }

    /** A key without a default: unset unless given. */
    public static ConfigKey optional(String name, ConfigDef.Type type, ConfigDef.Validator validator,
                                     ConfigSection section, String doc) {
        return new ConfigKey(name, type, false, null, null, "unset", validator, section, doc, null, false);
    }

    /** This key, also read under Kafka's name for the same setting (setting both to different values is an error). */
    public ConfigKey kafkaName(String kafka) {
        return new ConfigKey(name, type, required, literal, derived, defaultDoc, validator, section, doc,
                Objects.requireNonNull(kafka, "kafka name cannot be null"), fetchSide);
    }

    /** This key, passed to the inner {@code KafkaConsumer} under {@code kafka} when set (and only then). */
    public ConfigKey fetchClientKey(String kafka) {
        return new ConfigKey(name, type, required, literal, derived, defaultDoc, validator, section, doc,
                Objects.requireNonNull(kafka, "kafka name cannot be null"), true);
    }

    public String name() {
        return name;
    }

    public ConfigDef.Type type() {
        return type;
    }

    /** The typed default given the other typed effective values; null if the key has none. */
    public Object defaultValue(Function<String, Object> effective) {
        return literal != null ? literal : derived == null ? null : derived.value(effective);
    }

    /** Whether the default comes from other keys' values (and so is filled in after they are parsed). */
    public boolean hasDerivedDefault() {
        return derived != null;
    }

    /** The default as the docs state it: the literal, {@code `other.key`}, {@code required}, {@code unset}, .... */
    public String defaultDoc() {
        return defaultDoc;
    }

    /** Whether the key must be set. */
    public boolean isRequired() {
        return required;
    }

    public ConfigSection section() {
        return section;
    }

    /** What the key means. */
    public String doc() {
        return doc;
    }

    /** Kafka's consumer name of the same setting, if it has one (possibly this very name). */
    public Optional<String> kafkaName() {
        return Optional.ofNullable(kafkaName);
    }

    /** Whether, when set, the value goes to the inner {@code KafkaConsumer} under {@link #kafkaName()}. */
    public boolean isFetchSide() {
        return fetchSide;
    }

    /**
     * {@code value} as this key's type, checked; errors name the key as it was given ({@code givenAs}: this name or
     * Kafka's).
     *
     * @throws org.apache.kafka.common.config.ConfigException naming {@code givenAs}, the value and why
     */
    public Object parse(String givenAs, Object value) {
        Object parsed = ConfigDef.parseType(givenAs, value, type);
        if (validator != null) {
            validator.ensureValid(givenAs, parsed);
        }
        return parsed;
    }

    /** Adds this row to {@code def}: a derived default is null there and filled in once the others are parsed. */
    void defineIn(ConfigDef def) {
        Object defaultValue = required ? ConfigDef.NO_DEFAULT_VALUE : literal;
        def.define(name, type, defaultValue, validator,
                required ? ConfigDef.Importance.HIGH : ConfigDef.Importance.MEDIUM, doc);
    }

    @Override
    public String toString() {
        return name;
    }
}
