package io.zkgroups.rebalancer.consumer;

import io.zkgroups.rebalancer.metrics.legacy.BrokerAddress;
import io.zkgroups.registry.Time;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.BrokerInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;

/**
 * A broker id's address as registered under {@code /brokers/ids} (the top-level host and port 0.8.2.2 fetched from, else
 * the first listener), for the 0.8.2.2 per-broker MBeans. Starts from the registrations the consumer read when it
 * started; an id not among them starts a read of {@code /brokers/ids} in the background, at most once per
 * {@link #REREAD_NANOS}, and stays unknown until that read is done. The caller, the JVM's one metrics ticker, never
 * waits on ZooKeeper: a consumer whose server is slow or gone cannot stall the meters of the others.
 */
final class RegisteredBrokers implements IntFunction<Optional<BrokerAddress>> {

    private static final Logger LOG = LoggerFactory.getLogger(RegisteredBrokers.class);
    private static final long REREAD_NANOS = TimeUnit.MINUTES.toNanos(1);
    /** Threads only while a read is under way: one per consumer at most, idle ones end after a minute. */
    private static final Executor READS = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "zkgroups-broker-lookup");
        thread.setDaemon(true);
        return thread;
    });

    private final ZkRegistry registry;
    private final Time time;
    private final Map<Integer, BrokerAddress> known = new ConcurrentHashMap<>();
    private final AtomicBoolean reading = new AtomicBoolean();
    private long lastReadNanos;
    private boolean read;

    RegisteredBrokers(ZkRegistry registry, List<BrokerInfo> registered, Time time) {
        this.registry = registry;
        this.time = time;
        remember(registered);
    }

    @Override
    public Optional<BrokerAddress> apply(int brokerId) {
        BrokerAddress address = known.get(brokerId);
        if (address == null && rereadDue() && reading.compareAndSet(false, true)) {
            READS.execute(this::reread);
        }
        return Optional.ofNullable(address);
    }

    private void reread() {
        try {
            remember(registry.brokers().list().entries());
        } catch (RuntimeException e) {
            LOG.debug("reading /brokers/ids for the 0.8 per-broker MBeans failed; tried again in a minute", e);
        } finally {
            reading.set(false);
        }
    }

    private void remember(List<BrokerInfo> brokers) {
        for (BrokerInfo broker : brokers) {
            addressOf(broker).ifPresent(a -> known.put(broker.id(), a));
        }
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
