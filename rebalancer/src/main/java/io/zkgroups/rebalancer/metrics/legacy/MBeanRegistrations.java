package io.zkgroups.rebalancer.metrics.legacy;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.InstanceAlreadyExistsException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.HashSet;
import java.util.Set;

/**
 * The MBeans one consumer registered on the platform MBean server, so that it unregisters exactly those. A name already
 * registered in this JVM (another consumer with the same client id) is left to its first owner, with a warning: as in
 * 0.8.2.2, where two connectors with one client id shared one Yammer metric, nothing is registered twice.
 */
final class MBeanRegistrations {

    private static final Logger LOG = LoggerFactory.getLogger(MBeanRegistrations.class);

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final String clientId;
    private final Set<ObjectName> registered = new HashSet<>();

    MBeanRegistrations(String clientId) {
        this.clientId = clientId;
    }

    /** Registers {@code mbean}; returns its name, or null when the name is taken or invalid (logged). */
    synchronized ObjectName register(String name, Object mbean) {
        try {
            ObjectName objectName = new ObjectName(name);
            server.registerMBean(mbean, objectName);
            registered.add(objectName);
            return objectName;
        } catch (InstanceAlreadyExistsException e) {
            LOG.warn("MBean {} is already registered (another consumer with client.id {} in this JVM): not replaced",
                    name, clientId);
        } catch (MalformedObjectNameException e) {
            LOG.warn("cannot register MBean '{}': {}", name, e.getMessage());
        } catch (Exception e) {
            LOG.warn("cannot register MBean {}: {}", name, e.toString());
        }
        return null;
    }

    /** Unregisters {@code name} if this instance registered it. */
    synchronized void unregister(ObjectName name) {
        if (name != null && registered.remove(name)) {
            try {
                server.unregisterMBean(name);
            } catch (Exception e) {
                LOG.debug("MBean {} was already gone: {}", name, e.toString());
            }
        }
    }

    /** Unregisters every MBean this instance registered. */
    synchronized void unregisterAll() {
        for (ObjectName name : Set.copyOf(registered)) {
            unregister(name);
        }
    }
}
