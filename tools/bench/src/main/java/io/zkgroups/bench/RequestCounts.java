package io.zkgroups.bench;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.TreeMap;

/**
 * Requests the in-process ZooKeeper server and Kafka broker have received so far, from their JMX beans: ZooKeeper's
 * {@code PacketsReceived} (every request, session pings included) and Kafka's {@code RequestsPerSec} count per request
 * type. The difference of two readings is what happened in between.
 */
final class RequestCounts {

    private RequestCounts() {
    }

    /** Totals by source: {@code zookeeper} and {@code kafka:<RequestType>}. */
    static Map<String, Long> read() throws Exception {
        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        Map<String, Long> totals = new TreeMap<>();
        // the server's own bean only (one key, name0): its connections' beans count the same packets again
        for (ObjectName n : jmx.queryNames(new ObjectName("org.apache.ZooKeeperService:name0=*"), null)) {
            try {
                Object v = jmx.getAttribute(n, "PacketsReceived");
                totals.merge("zookeeper", ((Number) v).longValue(), Long::sum);
            } catch (javax.management.AttributeNotFoundException e) {
                // a bean of the server without the counter
            }
        }
        for (ObjectName n : jmx.queryNames(new ObjectName("kafka.network:type=RequestMetrics,name=RequestsPerSec,*"), null)) {
            totals.merge("kafka:" + n.getKeyProperty("request"), ((Number) jmx.getAttribute(n, "Count")).longValue(), Long::sum);
        }
        return totals;
    }

    /** {@code after - before}, leaving out what did not change. */
    static Map<String, Long> since(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> d = new TreeMap<>();
        after.forEach((k, v) -> {
            long delta = v - before.getOrDefault(k, 0L);
            if (delta != 0) {
                d.put(k, delta);
            }
        });
        return d;
    }
}
