package io.zkgroups.rebalancer.config;

/** Where a consumer key comes from, which decides where it is documented. */
public enum ConfigSection {
    /** A property of Kafka 0.8.2.2's high-level consumer (docs/compatibility.md#consumer-configuration). */
    LEGACY,
    /** One of zkgroups' own {@code zkgroups.*} properties. */
    ZKGROUPS
}
