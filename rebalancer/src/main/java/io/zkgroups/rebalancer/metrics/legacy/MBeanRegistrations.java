package io.zkgroups.rebalancer.metrics.legacy;

import io.zkgroups.registry.Immutable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The 0.8.2.2 MBeans one consumer holds on the platform MBean server, so that it lets go of exactly those. Two consumers
 * with one client id in a JVM share names, and nothing is registered twice: as 0.8.2.2's Yammer registry handed both
 * connectors the same meter, a meter or timer already registered here is shared (both consumers mark it; it goes when
 * the last one closes); a gauge, which reads one consumer's state, stays its first owner's, and the second consumer's
 * is not registered (a warning says so, once per consumer).
 */
final class MBeanRegistrations {

    private static final Logger LOG = LoggerFactory.getLogger(MBeanRegistrations.class);
    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();
    /** Every 0.8 MBean registered by a consumer of this JVM, with how many consumers hold it. */
    private static final Map<ObjectName, Held> HELD = new HashMap<>();

    private static final class Held {
        private final Object mbean;
        private final int holders;

        Held(Object mbean, int holders) {
            this.mbean = mbean;
            this.holders = holders;
        }

        public Object mbean() {
            return mbean;
        }

        public int holders() {
            return holders;
        }
    }

    private final String clientId;
    private final Set<ObjectName> mine = new HashSet<>();
    private boolean warned;

    MBeanRegistrations(String clientId) {
        this.clientId = clientId;
    }

    /**
     * Registers meter or timer {@code meter} under {@code name}, or joins the one of its class already there.
     *
     * @return the meter to mark: {@code meter}, or the one this consumer now shares
     */
    @SuppressWarnings("unchecked")
    <M extends LegacyMeter> M meter(String name, M meter) {
        Object held = hold(name, meter, true);
        return meter.getClass().isInstance(held) ? (M) meter.getClass().cast(held) : meter;
    }

    /** Registers {@code mbean} (a gauge); returns its name, or null when the name is taken or invalid (logged). */
    ObjectName register(String name, Object mbean) {
        return hold(name, mbean, false) == mbean ? objectName(name) : null;
    }

    private Object hold(String name, Object mbean, boolean shareable) {
        ObjectName objectName = objectName(name);
        if (objectName == null) {
            return null;
        }
        synchronized (HELD) {
            if (mine.contains(objectName)) {
                return HELD.get(objectName).mbean();
            }
            Held held = HELD.get(objectName);
            if (held != null && shareable && held.mbean().getClass() == mbean.getClass()) {
                HELD.put(objectName, new Held(held.mbean(), held.holders() + 1));
                mine.add(objectName);
                return held.mbean();
            }
            if (held == null) {
                try {
                    SERVER.registerMBean(mbean, objectName);
                    HELD.put(objectName, new Held(mbean, 1));
                    mine.add(objectName);
                    return mbean;
                } catch (Exception e) {
                    LOG.warn("cannot register MBean {}: {}", name, e.toString());
                    return null;
                }
            }
        }
        warnTaken(name);
        return null;
    }

    private synchronized void warnTaken(String name) {
        if (!warned) {
            warned = true;
            LOG.warn("MBean {} is held by another consumer with client.id {} in this JVM: its gauges stay that "
                    + "consumer's, not this one's (meters are shared)", name, clientId);
        } else {
            LOG.debug("MBean {} is held by another consumer with client.id {}", name, clientId);
        }
    }

    private static ObjectName objectName(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            LOG.warn("cannot register MBean '{}': {}", name, e.getMessage());
            return null;
        }
    }

    /** Lets go of {@code name} if this consumer holds it: unregistered when no other consumer does. */
    void unregister(ObjectName name) {
        if (name == null) {
            return;
        }
        synchronized (HELD) {
            if (!mine.remove(name)) {
                return;
            }
            Held held = HELD.get(name);
            if (held != null && held.holders() > 1) {
                HELD.put(name, new Held(held.mbean(), held.holders() - 1));
                return;
            }
            HELD.remove(name);
            try {
                SERVER.unregisterMBean(name);
            } catch (Exception e) {
                LOG.debug("MBean {} was already gone: {}", name, e.toString());
            }
        }
    }

    /** Lets go of every MBean this consumer holds. */
    void unregisterAll() {
        synchronized (HELD) {
            for (ObjectName name : Immutable.set(mine)) {
                unregister(name);
            }
        }
    }
}
