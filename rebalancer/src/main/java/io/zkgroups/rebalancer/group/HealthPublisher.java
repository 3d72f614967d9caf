package io.zkgroups.rebalancer.group;

import io.zkgroups.registry.Immutable;
import io.zkgroups.registry.store.Unreadable;
import org.slf4j.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Where a {@link ZkGroupMember}'s health goes out: the latest value, the listeners that hear of every change in order,
 * and the unreadable znodes other parts of the consumer report. The member only says when its health may have
 * changed; this class decides whether it did and tells the listeners. Safe on any thread.
 */
final class HealthPublisher {

    private final Logger log;
    private volatile MemberHealth health;
    private final List<Consumer<MemberHealth>> listeners = new CopyOnWriteArrayList<>();
    private final Object publishing = new Object();
    private final Map<String, List<Unreadable>> unreadableBySource = new ConcurrentSkipListMap<>();

    HealthPublisher(MemberContext member) {
        this.log = member.log();
    }

    /** The value published last. */
    MemberHealth current() {
        return health;
    }

    void addListener(Consumer<MemberHealth> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener cannot be null"));
    }

    void removeListener(Consumer<MemberHealth> listener) {
        listeners.remove(listener);
    }

    /** Replaces what {@code source} reported unreadable before; returns whether that changed anything. */
    boolean reportUnreadable(String source, List<Unreadable> unreadable) {
        List<Unreadable> copy = Immutable.list(unreadable);
        return copy.isEmpty() ? unreadableBySource.remove(source) != null
                : !copy.equals(unreadableBySource.put(source, copy));
    }

    /** Everything reported unreadable now, source by source. */
    List<Unreadable> alarms() {
        List<Unreadable> alarms = new ArrayList<>();
        unreadableBySource.values().forEach(alarms::addAll);
        return alarms;
    }

    /** Publishes the value {@code now} builds, if it differs from the last one. */
    void publish(Supplier<MemberHealth> now) {
        synchronized (publishing) { // one publisher at a time, so listeners see the values in order
            MemberHealth next = now.get();
            if (next.equals(health)) {
                return;
            }
            health = next;
            for (Consumer<MemberHealth> listener : listeners) {
                try {
                    listener.accept(next);
                } catch (RuntimeException e) {
                    log.warn("health listener {} failed: {}", listener, e.toString());
                }
            }
        }
    }
}
