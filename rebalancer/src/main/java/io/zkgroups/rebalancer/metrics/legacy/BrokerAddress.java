package io.zkgroups.rebalancer.metrics.legacy;

import java.util.Objects;

/** Where a broker listens, as 0.8.2.2 names it in per-broker MBeans ({@code brokerHost}, {@code brokerPort}). */
public final class BrokerAddress {
    private final String host;
    private final int port;

    public BrokerAddress(String host, int port) {
        this.host = host;
        this.port = port;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof BrokerAddress)) {
            return false;
        }
        BrokerAddress that = (BrokerAddress) other;
        return Objects.equals(host, that.host) && port == that.port;
    }

    @Override
    public int hashCode() {
        return Objects.hash(host, port);
    }

    @Override
    public String toString() {
        return "BrokerAddress[host=" + host + ", port=" + port + "]";
    }
}
