package io.zkgroups.rebalancer.metrics.legacy;

/** Where a broker listens, as 0.8.2.2 names it in per-broker MBeans ({@code brokerHost}, {@code brokerPort}). */
public record BrokerAddress(String host, int port) {
}
