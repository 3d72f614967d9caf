package io.zkgroups.tool.io;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How to reach the cluster, from the common command-line options.
 *
 * @param zookeeper       {@code host:port[,host:port...][/chroot]}
 * @param bootstrapServer Kafka bootstrap servers, or null to derive them from {@code /brokers/ids}
 * @param commandConfig   Kafka client properties (SASL/TLS), or null
 * @param zkAuth          ZooKeeper digest credentials {@code user:password}, or null
 * @param zkTlsConfigFile ZooKeeper client security properties (TLS, SASL, ACLs; Kafka's names), or null
 * @param timeout         bound of every connection attempt and request
 */
public record ConnectionSettings(String zookeeper, String bootstrapServer, Path commandConfig, String zkAuth,
                                 Path zkTlsConfigFile, Duration timeout) {

    public ConnectionSettings {
        Objects.requireNonNull(zookeeper, "zookeeper");
        Objects.requireNonNull(timeout, "timeout");
    }
}
