package io.zkgroups.testing;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real ZooKeeper server for tests, bound to 127.0.0.1 only, with a short tick so that sessions can be
 * short. Also owns the Curator clients it hands out, and closes them with the server, all at once: a ZooKeeper
 * handle's close waits ~100 ms for its socket's cleanup, which would add up over a suite's clients.
 * <p>
 * In-process (curator-test, ZooKeeper 3.9) unless the system property {@value ChildZooKeeperServer#VERSION_PROPERTY}
 * asks for an older release: then a {@link ChildZooKeeperServer} of that version, so that the same suites run on
 * 3.4 and 3.5 ensembles.
 */
public final class TestZooKeeper implements AutoCloseable {

    /** Tick of 50 ms: sessions negotiate between 100 ms and 1 s... unless the client asks for more. */
    public static final int TICK_MS = 50;
    private static final int MAX_SESSION_MS = 60_000;

    private final TestingServer server;
    private final ChildZooKeeperServer child;
    private final Path dataDir;
    private final List<CuratorFramework> clients = new ArrayList<>();

    private TestZooKeeper(TestingServer server, ChildZooKeeperServer child, Path dataDir) {
        this.server = server;
        this.child = child;
        this.dataDir = dataDir;
    }

    /** Starts a server on a free loopback port (of the release the system properties ask for, if any). */
    public static TestZooKeeper start() {
        if (ChildZooKeeperServer.requestedVersion().isPresent()) {
            return new TestZooKeeper(null, ChildZooKeeperServer.startRequested(TICK_MS, 2 * TICK_MS, MAX_SESSION_MS),
                    null);
        }
        return startInProcess();
    }

    /** Starts an in-process ZooKeeper 3.9 server on a free loopback port, whatever the system properties say. */
    public static TestZooKeeper startInProcess() {
        try {
            Path dir = Files.createTempDirectory("zkgroups-zk-");
            Map<String, Object> props = Map.of(
                    "clientPortAddress", "127.0.0.1",
                    "minSessionTimeout", String.valueOf(2 * TICK_MS),
                    "maxSessionTimeout", String.valueOf(MAX_SESSION_MS),
                    // unlimited connections from one address (the default is 60): benchmarks run hundreds of sessions
                    "maxClientCnxns", "0");
            InstanceSpec spec = new InstanceSpec(dir.toFile(), InstanceSpec.getRandomPort(), -1, -1, true, 1,
                    TICK_MS, -1, props, "127.0.0.1");
            return new TestZooKeeper(new TestingServer(spec, true), null, dir);
        } catch (Exception e) {
            throw new IllegalStateException("could not start a test ZooKeeper: " + e, e);
        }
    }

    /** {@code 127.0.0.1:port}. */
    public String connectString() {
        return "127.0.0.1:" + (child != null ? child.port() : server.getPort());
    }

    /** The in-process server, for tests that stop or restart it. */
    public TestingServer server() {
        if (server == null) {
            throw new IllegalStateException("this test needs the in-process server; it runs on ZooKeeper " + child.version());
        }
        return server;
    }

    /** Where the server writes its transaction log (the same format from 3.4 to 3.9). */
    public java.io.File transactionLogDir() {
        return child != null ? child.dataDir().resolve("version-2").toFile()
                : new java.io.File(server.getTempDirectory(), "version-2");
    }

    /** The server release: the child's, or the in-process 3.9's. */
    public String version() {
        return child != null ? child.version() : org.apache.zookeeper.Version.getFullVersion();
    }

    /** The child server, empty for the in-process one. */
    public java.util.Optional<ChildZooKeeperServer> child() {
        return java.util.Optional.ofNullable(child);
    }

    /** A started Curator client with the given session timeout, closed with this server. */
    public synchronized CuratorFramework newClient(int sessionTimeoutMs) {
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(connectString())
                .sessionTimeoutMs(sessionTimeoutMs)
                .connectionTimeoutMs(5_000)
                .retryPolicy(new ExponentialBackoffRetry(50, 10, 500))
                .build();
        return adopt(client);
    }

    /** Starts {@code client} (built on {@link #connectString()}), waits for its session, closes it with this server. */
    public synchronized CuratorFramework adopt(CuratorFramework client) {
        client.start();
        try {
            if (!client.blockUntilConnected(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no connection to the test ZooKeeper at " + connectString());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        clients.add(client);
        return client;
    }

    /** A started Curator client with a 10 s session. */
    public CuratorFramework newClient() {
        return newClient(10_000);
    }

    /**
     * Ends {@code client}'s session on the server for real: a second handle joins the same session and
     * closes it, so the server deletes the session's ephemerals at once (Curator's {@code KillSession}
     * only fakes an expiry on the client side).
     */
    public static void expireSession(CuratorFramework client) {
        try {
            ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
            long sessionId = zk.getSessionId();
            byte[] password = zk.getSessionPasswd();
            String connect = client.getZookeeperClient().getCurrentConnectionString();
            CountDownLatch connected = new CountDownLatch(1);
            Watcher watcher = (WatchedEvent event) -> {
                if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    connected.countDown();
                }
            };
            ZooKeeper twin = new ZooKeeper(connect, 10_000, watcher, sessionId, password);
            try {
                if (!connected.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("could not join session 0x" + Long.toHexString(sessionId));
                }
            } finally {
                twin.close();
            }
        } catch (Exception e) {
            throw new IllegalStateException("could not expire the session: " + e, e);
        }
    }

    @Override
    public synchronized void close() {
        closeAll(clients);
        clients.clear();
        if (child != null) {
            child.close();
            return;
        }
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deleteRecursively(dataDir);
        }
    }

    /** Closes the clients on threads of their own, so that their closes overlap. */
    private static void closeAll(List<CuratorFramework> clients) {
        List<Thread> closing = new ArrayList<>();
        for (CuratorFramework client : clients) {
            Thread thread = new Thread(client::close, "close-test-client");
            thread.setDaemon(true);
            thread.start();
            closing.add(thread);
        }
        for (Thread thread : closing) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort: a temp dir left behind is not a test failure
        }
    }
}
