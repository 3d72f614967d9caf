package io.zkgroups.rebalancer.metrics.legacy;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.ObjectName;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.util.Properties;

/**
 * 0.8.2.2's {@code kafka.common:type=AppInfo,name=Version} gauge: registered once per JVM by the first consumer and
 * never removed, as 0.8.2.2 did. Its value is the zkgroups version (0.8.2.2 showed its own jar's), so a dashboard that
 * lists versions tells the swapped processes apart.
 */
final class AppInfo {

    private static final Logger LOG = LoggerFactory.getLogger(AppInfo.class);
    private static final String NAME = "kafka.common:type=AppInfo,name=Version";
    private static final String RESOURCE = "version.properties";

    private AppInfo() {
    }

    static synchronized void registerOnce() {
        try {
            ObjectName name = new ObjectName(NAME);
            if (!ManagementFactory.getPlatformMBeanServer().isRegistered(name)) {
                ManagementFactory.getPlatformMBeanServer().registerMBean(new LegacyGauge(AppInfo::version), name);
            }
        } catch (Exception e) {
            LOG.warn("cannot register MBean {}: {}", NAME, e.toString());
        }
    }

    /** The project version the build wrote into {@value #RESOURCE}, or "unknown" if the resource is missing. */
    static String version() {
        try (InputStream in = AppInfo.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return "unknown";
            }
            Properties props = new Properties();
            props.load(in);
            return props.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
