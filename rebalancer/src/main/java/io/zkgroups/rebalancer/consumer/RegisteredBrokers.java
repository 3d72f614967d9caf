package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.metrics.legacy.BrokerAddress;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.BrokerInfo;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * A broker id's address as registered under {@code /brokers/ids} (the top-level host and port 0.8.2.2 fetched from, else
 * the first listener), for the 0.8.2.2 per-broker MBeans. Read from ZooKeeper when an unknown id is asked for, at most
 * once per {@link #REREAD_NANOS}: an id not registered there (a KRaft cluster) stays unknown without a read every tick.
 */
final class RegisteredBrokers implements IntFunction<Optional<BrokerAddress>> {

    private static final long REREAD_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final ZkRegistry registry;
    private final Map<Integer, BrokerAddress> known = new ConcurrentHashMap<>();
    private long lastReadNanos;
    private boolean read;

    private final Time time;

    RegisteredBrokers(ZkRegistry registry, Time time) {
        this.registry = registry;
        this.time = time;
    }

    @Override
    public Optional<BrokerAddress> apply(int brokerId) {
        BrokerAddress address = known.get(brokerId);
        if (address == null && rereadDue()) {
            for (BrokerInfo broker : registry.brokers().list().entries()) {
                addressOf(broker).ifPresent(a -> known.put(broker.id(), a));
            }
            address = known.get(brokerId);
        }
        return Optional.ofNullable(address);
    }

    private synchronized boolean rereadDue() {
        long now = time.nanoseconds();
        if (read && now - lastReadNanos < REREAD_NANOS) {
            return false;
        }
        read = true;
        lastReadNanos = now;
        return true;
    }

    private static Optional<BrokerAddress> addressOf(BrokerInfo broker) {
        if (broker.hasPlaintextEndpoint()) {
            return Optional.of(new BrokerAddress(broker.host(), broker.port()));
        }
        return broker.endpoints().stream().findFirst().map(e -> new BrokerAddress(e.host(), e.port()));
    }
}
