package io.zkgroups.rebalancer.consumer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads, on a short-lived daemon thread, what a fresh consumer needs later on its way to the first record but that
 * needs nothing from it: the platform MBean server (the consumer's MBeans and its fetch client's), kafka-clients'
 * protocol tables (every API's message classes, every error code and the request and response classes, which the
 * fetch client's first request and first answer load: a few hundred milliseconds in a fresh JVM), and the classes of
 * the member's first rebalance ({@value #STARTUP_CLASSES}: loaded, not initialized), which would otherwise load while
 * the group waits for its claim. Started when
 * {@link ZkGroupConsumer} initializes, it runs on another core while the consumer parses its configuration,
 * connects to ZooKeeper and joins, instead of after the join, between the claim and the first fetch (as Spring
 * Boot's {@code BackgroundPreinitializer} does for its own start). A class loads once per JVM, so nothing is done
 * twice; should a name be missing from another kafka-clients version, that class only loads later, as before.
 * <p>
 * The JVM system property {@code zkgroups.startup.warmup=false} turns it off (it runs before any consumer's
 * properties are read): the start then is as without it, each class loaded where it is first needed.
 */
final class StartupWarmup {

    static final String ENABLED_PROPERTY = "zkgroups.startup.warmup";

    /** Initialized in this order: the fetch client needs them in it. */
    static final String[] KAFKA_PROTOCOL = {
            "org.apache.kafka.common.protocol.ApiKeys",
            "org.apache.kafka.common.protocol.Errors",
            "org.apache.kafka.common.requests.AbstractRequest",
            "org.apache.kafka.common.requests.AbstractResponse",
    };

    /** The classes of the way from the registration to the first record, one name per line; # starts a comment. */
    static final String STARTUP_CLASSES = "startup-classes.txt";

    private StartupWarmup() {
    }

    /** Starts the warm-up unless {@value #ENABLED_PROPERTY} is false; the thread started, or null. */
    static Thread startUnlessDisabled() {
        try {
            return "false".equalsIgnoreCase(System.getProperty(ENABLED_PROPERTY, "true").trim()) ? null : start();
        } catch (RuntimeException | Error e) {
            // a head start only (no thread to be had, a security manager): never why the consumer class fails to load
            return null;
        }
    }

    /** Starts the warm-up and returns at once. */
    static Thread start() {
        Thread thread = new Thread(StartupWarmup::run, "zkgroups-startup-warmup");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    static void run() {
        try {
            ManagementFactory.getPlatformMBeanServer();
            ClassLoader loader = StartupWarmup.class.getClassLoader();
            for (String name : KAFKA_PROTOCOL) {
                Class.forName(name, true, loader);
            }
            for (String name : startupClasses()) {
                try {
                    Class.forName(name, false, loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    // a class of another version of a library: it is not needed, or loads where it is
                }
            }
        } catch (Exception | LinkageError e) {
            // only an earlier start is lost: whoever needs the class loads it, and reports what fails
        }
    }

    /** The names in {@value #STARTUP_CLASSES}, in their order. */
    static List<String> startupClasses() throws IOException {
        List<String> names = new ArrayList<>();
        InputStream in = StartupWarmup.class.getResourceAsStream(STARTUP_CLASSES);
        if (in == null) {
            return names;
        }
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                String name = line.trim();
                if (!name.isEmpty() && !name.startsWith("#")) {
                    names.add(name);
                }
            }
        }
        return names;
    }
}
