package io.zkgroups.rebalancer.metrics.legacy;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * 0.8.2.2's per-broker fetcher meters, {@code kafka.server:type=FetcherStats,name=RequestsPerSec|BytesPerSec,clientId=C,
 * brokerHost=H,brokerPort=P}, and the {@code MinFetchRate} they make (the slowest broker's one-minute request rate).
 * Fed from the fetch client's per-node running totals ({@code consumer-node-metrics} {@code request-total},
 * {@code incoming-byte-total}) at each {@link SamplingTicker} tick: a broker's meters appear once the client has talked to
 * it and its address is known, and stay until the consumer closes.
 */
final class FetcherStats {

    private static final Logger LOG = LoggerFactory.getLogger(FetcherStats.class);
    private static final String TYPE = "kafka.server:type=FetcherStats";
    private static final String NODE_GROUP = "consumer-node-metrics";
    private static final String NODE_PREFIX = "node-";

    private final MBeanRegistrations registrations;
    private final String clientId;
    private final Supplier<Map<MetricName, ? extends Metric>> fetcherMetrics;
    private final IntFunction<Optional<BrokerAddress>> brokers;
    private final Map<Integer, Broker> byNode = new HashMap<>();

    /** One broker's meters and the totals last marked into them. */
    private static final class Broker {
        final LegacyMeter requests;
        final LegacyMeter bytes;
        long requestsSeen;
        long bytesSeen;

        Broker(LegacyMeter requests, LegacyMeter bytes) {
            this.requests = requests;
            this.bytes = bytes;
        }
    }

    /** @param brokers a broker id's address, empty when it is not known (then tried again at the next tick) */
    FetcherStats(MBeanRegistrations registrations, String clientId,
                 Supplier<Map<MetricName, ? extends Metric>> fetcherMetrics, IntFunction<Optional<BrokerAddress>> brokers) {
        this.registrations = registrations;
        this.clientId = clientId;
        this.fetcherMetrics = fetcherMetrics;
        this.brokers = brokers;
    }

    /** Marks what each broker's totals grew by since the last sample. */
    synchronized void sample() {
        Map<Integer, long[]> totals = new HashMap<>();
        for (Map.Entry<MetricName, ? extends Metric> e : fetcherMetrics.get().entrySet()) {
            MetricName name = e.getKey();
            int slot = name.name().equals("request-total") ? 0 : name.name().equals("incoming-byte-total") ? 1 : -1;
            int node = slot < 0 || !name.group().equals(NODE_GROUP) ? -1 : nodeId(name.tags().get("node-id"));
            Object value = e.getValue().metricValue();
            if (node >= 0 && value instanceof Number) { // bootstrap connections have ids < 0
                totals.computeIfAbsent(node, k -> new long[2])[slot] = (long) ((Number) value).doubleValue();
            }
        }
        totals.forEach((node, seen) -> {
            Broker broker = byNode.get(node);
            if (broker == null) {
                broker = register(node);
                if (broker == null) {
                    return;
                }
            }
            // a total that went down is a new connection's: its count starts again from 0
            broker.requests.mark(seen[0] >= broker.requestsSeen ? seen[0] - broker.requestsSeen : seen[0]);
            broker.bytes.mark(seen[1] >= broker.bytesSeen ? seen[1] - broker.bytesSeen : seen[1]);
            broker.requestsSeen = seen[0];
            broker.bytesSeen = seen[1];
        });
    }

    private Broker register(int node) {
        Optional<BrokerAddress> address;
        try {
            address = brokers.apply(node);
        } catch (RuntimeException e) {
            LOG.debug("address of broker {} unknown for now: {}", node, e.toString());
            return null;
        }
        if (!address.isPresent()) {
            return null;
        }
        String keys = ",clientId=" + clientId + ",brokerHost=" + address.get().host() + ",brokerPort=" + address.get().port();
        Broker broker = new Broker(registrations.meter(TYPE + ",name=RequestsPerSec" + keys, new LegacyMeter("requests")),
                registrations.meter(TYPE + ",name=BytesPerSec" + keys, new LegacyMeter("bytes")));
        byNode.put(node, broker);
        return broker;
    }

    /** 0.8.2.2's {@code MinFetchRate}: the lowest one-minute request rate of a broker fetched from, 0 when none. */
    synchronized double minFetchRate() {
        return byNode.values().stream().mapToDouble(b -> b.requests.getOneMinuteRate()).min().orElse(0.0);
    }

    private static int nodeId(String tag) {
        if (tag == null || !tag.startsWith(NODE_PREFIX)) {
            return -1;
        }
        try {
            return Integer.parseInt(tag.substring(NODE_PREFIX.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
