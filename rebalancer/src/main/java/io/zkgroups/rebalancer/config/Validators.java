package io.zkgroups.rebalancer.config;

import io.zkgroups.registry.ZkNames;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

import java.util.function.Function;

/**
 * The checks of the consumer keys, as Kafka {@link ConfigDef.Validator}s. Each passes an unset value (null: a key whose
 * default is derived from another key) and fails with Kafka's {@link ConfigException}, whose message names the key,
 * the value and why.
 */
public final class Validators {

    private Validators() {
    }

    /** An integer of {@code min} or more. */
    public static ConfigDef.Validator atLeast(int min) {
        return unlessUnset(ConfigDef.Range.atLeast(min));
    }

    /** One of {@code allowed}, ignoring case. */
    public static ConfigDef.Validator oneOfIgnoringCase(String... allowed) {
        return unlessUnset(ConfigDef.CaseInsensitiveValidString.in(allowed));
    }

    /** Not empty. */
    public static ConfigDef.Validator nonEmpty() {
        return unlessUnset(new ConfigDef.NonEmptyString());
    }

    /** A legal ZooKeeper node name ({@link ZkNames}). */
    public static ConfigDef.Validator zkName() {
        return unlessUnset((name, value) -> {
            try {
                ZkNames.requireValid(name, (String) value);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        });
    }

    /**
     * Whatever {@code problem} says of the value (null: fine), asked at check time (for registries that change, such
     * as the assignors).
     */
    public static ConfigDef.Validator check(Function<String, String> problem) {
        return unlessUnset((name, value) -> {
            String why = problem.apply((String) value);
            if (why != null) {
                throw new ConfigException(name, value, why);
            }
        });
    }

    private static ConfigDef.Validator unlessUnset(ConfigDef.Validator validator) {
        return new ConfigDef.Validator() {
            @Override
            public void ensureValid(String name, Object value) {
                if (value != null) {
                    validator.ensureValid(name, value);
                }
            }

            @Override
            public String toString() {
                return validator.toString();
            }
        };
    }
}
