package io.zkgroups.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports for test servers that bind them later than they are chosen, or bind them again after a restart (a
 * ZooKeeper follower opens its quorum port only once it leads). They come from below Linux's ephemeral range
 * (32768 and up), where neither a socket bound to port 0 nor an outgoing connection's local end can take one in
 * the meantime; a port from {@code new ServerSocket(0)} can be taken by any connection.
 */
public final class ServerPorts {

    private static final int LOW = 16_384;
    private static final int HIGH = 32_768;
    /** Handed out by this JVM: never twice, even once its probe has closed. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    private ServerPorts() {
    }

    /** A port in [16384, 32768) that nothing listens on now and that this JVM has not handed out before. */
    public static int free() {
        for (int attempt = 0; attempt < 1_000; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOW, HIGH);
            if (!HANDED_OUT.add(port)) {
                continue;
            }
            try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return probe.getLocalPort();
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IllegalStateException("no free port found between " + LOW + " and " + (HIGH - 1));
    }
}
