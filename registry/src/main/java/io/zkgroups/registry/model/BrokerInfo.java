package io.zkgroups.registry.model;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.zkgroups.registry.Immutable;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A broker registration ({@code /brokers/ids/N}), any JSON version 1–5. */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
public final class BrokerInfo {
    private final int id;
    private final String host;
    private final int port;
    private final int version;
    private final int jmxPort;
    private final String timestamp;
    private final List<Endpoint> endpoints;
    private final Optional<String> rack;

    /**
     * Creates it from its parts.
     *
     * @param id        broker id (the znode name)
     * @param host      top-level {@code host}: the first PLAINTEXT endpoint, or {@code null} when the broker has none (v2+ brokers write {@code "host":null,"port":-1} then)
     * @param port      top-level {@code port}, {@code -1} when absent
     * @param version   the {@code version} field (0.8.2.2 writes 1; readers must not care)
     * @param jmxPort   {@code jmx_port}, {@code -1} when absent
     * @param timestamp registration time as the broker wrote it (text), empty when absent
     * @param endpoints the {@code endpoints} of v2+ registrations, parsed; empty for v1
     * @param rack      {@code rack} of v3+, if configured
     */
    public BrokerInfo(int id, String host, int port, int version, int jmxPort, String timestamp, List<Endpoint> endpoints, Optional<String> rack) {
        Objects.requireNonNull(timestamp, "timestamp cannot be null");
        endpoints = Immutable.list(endpoints);
        Objects.requireNonNull(rack, "rack cannot be null");
        this.id = id;
        this.host = host;
        this.port = port;
        this.version = version;
        this.jmxPort = jmxPort;
        this.timestamp = timestamp;
        this.endpoints = endpoints;
        this.rack = rack;
    }

    /** A v1 registration as a 0.8.2.2 broker writes it. */
    public static BrokerInfo v1(int id, String host, int port, int jmxPort, long timestampMillis) {
        Objects.requireNonNull(host, "host cannot be null");
        return new BrokerInfo(id, host, port, 1, jmxPort, Long.toString(timestampMillis), Collections.emptyList(), Optional.empty());
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
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
    public static final class Endpoint {
        private final String listenerName;
        private final String securityProtocol;
        private final String host;
        private final int port;

        public Endpoint(String listenerName, String securityProtocol, String host, int port) {
            Objects.requireNonNull(listenerName, "listenerName cannot be null");
            Objects.requireNonNull(securityProtocol, "securityProtocol cannot be null");
            Objects.requireNonNull(host, "host cannot be null");
            this.listenerName = listenerName;
            this.securityProtocol = securityProtocol;
            this.host = host;
            this.port = port;
        }

        public String address() {
            return hostPort(host, port);
        }

        public String listenerName() {
            return listenerName;
        }

        public String securityProtocol() {
            return securityProtocol;
        }

        public String host() {
            return host;
        }

        public int port() {
            return port;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Endpoint)) {
                return false;
            }
            Endpoint that = (Endpoint) o;
            return Objects.equals(listenerName, that.listenerName)
                    && Objects.equals(securityProtocol, that.securityProtocol)
                    && Objects.equals(host, that.host)
                    && port == that.port;
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Objects.hashCode(listenerName);
            h = 31 * h + Objects.hashCode(securityProtocol);
            h = 31 * h + Objects.hashCode(host);
            h = 31 * h + Integer.hashCode(port);
            return h;
        }

        @Override
        public String toString() {
            return "Endpoint[listenerName=" + listenerName + ", securityProtocol=" + securityProtocol + ", host=" + host + ", port=" + port + "]";
        }
    }

    public int id() {
        return id;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public int version() {
        return version;
    }

    public int jmxPort() {
        return jmxPort;
    }

    public String timestamp() {
        return timestamp;
    }

    public List<Endpoint> endpoints() {
        return endpoints;
    }

    public Optional<String> rack() {
        return rack;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof BrokerInfo)) {
            return false;
        }
        BrokerInfo that = (BrokerInfo) o;
        return id == that.id
                && Objects.equals(host, that.host)
                && port == that.port
                && version == that.version
                && jmxPort == that.jmxPort
                && Objects.equals(timestamp, that.timestamp)
                && Objects.equals(endpoints, that.endpoints)
                && Objects.equals(rack, that.rack);
    }

    @Override
    public int hashCode() {
        int h = 0;
        h = 31 * h + Integer.hashCode(id);
        h = 31 * h + Objects.hashCode(host);
        h = 31 * h + Integer.hashCode(port);
        h = 31 * h + Integer.hashCode(version);
        h = 31 * h + Integer.hashCode(jmxPort);
        h = 31 * h + Objects.hashCode(timestamp);
        h = 31 * h + Objects.hashCode(endpoints);
        h = 31 * h + Objects.hashCode(rack);
        return h;
    }

    @Override
    public String toString() {
        return "BrokerInfo[id=" + id + ", host=" + host + ", port=" + port + ", version=" + version + ", jmxPort=" + jmxPort + ", timestamp=" + timestamp + ", endpoints=" + endpoints + ", rack=" + rack + "]";
    }
}
