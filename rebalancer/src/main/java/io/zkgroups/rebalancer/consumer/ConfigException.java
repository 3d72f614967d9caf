package io.zkgroups.rebalancer.consumer;

/** A consumer property is missing or has a bad value; the message names the key and the value. */
public final class ConfigException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }
}
