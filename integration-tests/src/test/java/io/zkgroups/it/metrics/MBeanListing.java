package io.zkgroups.it.metrics;

import com.sun.tools.attach.VirtualMachine;

import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.Closeable;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The {@code kafka*} MBeans of one JVM, read the way a JMX agent reads them: this test JVM's platform server, or a
 * child's through the attach API (its local management agent, started on demand), so a real 0.8.2.2 consumer in its
 * own JVM is listed like the consumer in this one.
 */
final class MBeanListing implements Closeable {

    private final MBeanServerConnection server;
    private final JMXConnector connector;

    private MBeanListing(MBeanServerConnection server, JMXConnector connector) {
        this.server = server;
        this.connector = connector;
    }

    static MBeanListing local() {
        return new MBeanListing(ManagementFactory.getPlatformMBeanServer(), null);
    }

    /** The MBean server of the JVM with process id {@code pid}. */
    static MBeanListing attach(long pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        String address;
        try {
            address = vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
        JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address));
        return new MBeanListing(connector.getMBeanServerConnection(), connector);
    }

    /** The MBeans in domains {@code kafka*} whose key properties include {@code keys} (e.g. clientId=C). */
    Set<ObjectName> names(Map<String, String> keys) throws IOException {
        Set<ObjectName> result = new TreeSet<>();
        for (ObjectName name : server.queryNames(null, null)) {
            if (name.getDomain().startsWith("kafka") && keys.entrySet().stream()
                    .allMatch(k -> k.getValue().equals(name.getKeyProperty(k.getKey())))) {
                result.add(name);
            }
        }
        return result;
    }

    /** Every MBean in domains {@code kafka*}. */
    Set<ObjectName> names() throws IOException {
        return names(Map.of());
    }

    /** The attribute names of {@code name}. */
    Set<String> attributes(ObjectName name) throws Exception {
        Set<String> result = new TreeSet<>();
        for (MBeanAttributeInfo info : server.getMBeanInfo(name).getAttributes()) {
            result.add(info.getName());
        }
        return result;
    }

    MBeanAttributeInfo[] attributeInfo(ObjectName name) throws Exception {
        return server.getMBeanInfo(name).getAttributes();
    }

    /** The attribute values of {@code name}, by attribute name. */
    Map<String, Object> values(ObjectName name) throws Exception {
        Map<String, Object> result = new TreeMap<>();
        for (String attribute : attributes(name)) {
            result.put(attribute, server.getAttribute(name, attribute));
        }
        return result;
    }

    Object value(ObjectName name, String attribute) throws Exception {
        return server.getAttribute(name, attribute);
    }

    boolean isRegistered(ObjectName name) throws IOException {
        return server.isRegistered(name);
    }

    /** Every {@code kafka*} MBean with its attributes and values, one per line (for failure messages). */
    String dump() throws Exception {
        Map<String, Object> lines = new LinkedHashMap<>();
        for (ObjectName name : names()) {
            lines.put(name.toString(), values(name));
        }
        StringBuilder b = new StringBuilder();
        lines.forEach((n, v) -> b.append(n).append(' ').append(v).append('\n'));
        return b.toString();
    }

    @Override
    public void close() throws IOException {
        if (connector != null) {
            connector.close();
        }
    }
}
