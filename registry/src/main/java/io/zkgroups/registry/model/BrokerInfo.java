package io.zkgroups.registry.model;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A broker registration ({@code /brokers/ids/N}), any JSON version 1–5.
 *
 * @param id        broker id (the znode name)
 * @param host      top-level {@code host}: the first PLAINTEXT endpoint, or {@code null} when the broker
 *                  has none (v2+ brokers write {@code "host":null,"port":-1} then)
 * @param port      top-level {@code port}, {@code -1} when absent
 * @param version   the {@code version} field (0.8.2.2 writes 1; readers must not care)
 * @param jmxPort   {@code jmx_port}, {@code -1} when absent
 * @param timestamp registration time as the broker wrote it (text), empty when absent
 * @param endpoints the {@code endpoints} of v2+ registrations, parsed; empty for v1
 * @param rack      {@code rack} of v3+, if configured
 */
public record BrokerInfo(int id, String host, int port, int version, int jmxPort, String timestamp,
                         List<Endpoint> endpoints, Optional<String> rack) {

    public BrokerInfo {
        Objects.requireNonNull(timestamp, "timestamp cannot be null");
        endpoints = List.copyOf(endpoints);
        Objects.requireNonNull(rack, "rack cannot be null");
    }

    /** A v1 registration as a 0.8.2.2 broker writes it. */
    public static BrokerInfo v1(int id, String host, int port, int jmxPort, long timestampMillis) {
        Objects.requireNonNull(host, "host cannot be null");
        return new BrokerInfo(id, host, port, 1, jmxPort, Long.toString(timestampMillis), List.of(), Optional.empty());
    }

    /** True when 0.8.2.2 consumers can fetch from this broker: a top-level PLAINTEXT host and port. */
    public boolean hasPlaintextEndpoint() {
        return host != null && !host.isEmpty() && port >= 0;
    }

    /** {@code host:port} of the top-level PLAINTEXT endpoint, if there is one. */
    public Optional<String> plaintextAddress() {
        return hasPlaintextEndpoint() ? Optional.of(hostPort(host, port)) : Optional.empty();
    }

    static String hostPort(String host, int port) {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * One listener of a v2+ registration ({@code "SSL://host:9093"}); {@code securityProtocol} comes from
     * {@code listener_security_protocol_map} when present, else it is the listener name.
     */
    public record Endpoint(String listenerName, String securityProtocol, String host, int port) {
        public Endpoint {
            Objects.requireNonNull(listenerName, "listenerName cannot be null");
            Objects.requireNonNull(securityProtocol, "securityProtocol cannot be null");
            Objects.requireNonNull(host, "host cannot be null");
        }

        public String address() {
            return hostPort(host, port);
        }
    }
}
