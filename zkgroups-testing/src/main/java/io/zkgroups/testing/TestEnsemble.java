package io.zkgroups.testing;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.quorum.QuorumPeer;
import org.apache.zookeeper.server.quorum.QuorumPeer.ServerState;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;
import org.apache.zookeeper.util.ServiceUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;

/**
 * A real ZooKeeper ensemble in this JVM (in-process {@link QuorumPeer}s, numbered from 1, bound to 127.0.0.1)
 * whose servers reach each other only through {@link TcpProxy proxies}: one per direction of every pair of
 * servers, for the quorum port (follower to leader) and the election port. A test can so cut a server off from
 * the others while its own clients still reach it ({@link #isolate}), or cut one pair ({@link #cut}). Client ports
 * are not proxied: {@link #newClient} connects straight to one server.
 * <pre>{@code
 * try (TestEnsemble ensemble = TestEnsemble.start(TestEnsemble.Settings.threeServers())) {
 *     ensemble.awaitQuorum();
 *     int x = ensemble.followers().get(0);
 *     CuratorFramework client = ensemble.newClient(x, 1_000);
 *     ensemble.isolate(x);   // x keeps serving its clients until it gives up on the leader
 * }
 * }</pre>
 */
public final class TestEnsemble implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TestEnsemble.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final int MAX_SESSION_MS = 60_000;

    /**
     * @param servers        how many servers (3 tolerates one down or cut off)
     * @param tickMs         ZooKeeper's tickTime; sessions negotiate to at least 2 ticks
     * @param initLimitTicks ticks a follower may take to connect to and sync with a leader
     * @param syncLimitTicks ticks a follower and its leader wait for each other before giving up: how long a cut-off
     *                       follower keeps serving its clients from its own copy
     */
    public record Settings(int servers, int tickMs, int initLimitTicks, int syncLimitTicks) {

        public Settings {
            if (servers < 1 || tickMs < 1 || initLimitTicks < 1 || syncLimitTicks < 1) {
                throw new IllegalArgumentException("every setting must be positive: " + this);
            }
        }

        /** Three servers, a 100 ms tick, 10 ticks to join a leader and 10 to give up on it. */
        public static Settings threeServers() {
            return new Settings(3, 100, 10, 10);
        }

        public Settings withSyncLimitTicks(int ticks) {
            return new Settings(servers, tickMs, initLimitTicks, ticks);
        }
    }

    private record Direction(int from, int to) {
    }

    /** The two proxies a server reaches another server through. */
    private record Link(TcpProxy quorum, TcpProxy election) {
        void blackhole() {
            quorum.blackhole();
            election.blackhole();
        }

        void heal() {
            quorum.heal();
            election.heal();
        }

        void close() {
            quorum.close();
            election.close();
        }
    }

    private final Settings settings;
    private final Path root;
    private final Map<Integer, Server> servers = new TreeMap<>();
    private final Map<Direction, Link> links = new LinkedHashMap<>();
    private final List<CuratorFramework> clients = new ArrayList<>();

    private TestEnsemble(Settings settings, Path root) {
        this.settings = settings;
        this.root = root;
    }

    /** Starts the servers; they elect a leader in the background ({@link #awaitQuorum()} waits for it). */
    public static TestEnsemble start(Settings settings) {
        // A server that fails (e.g. cannot bind a port) must fail the test, not end the test JVM.
        ServiceUtils.setSystemExitProcedure(ServiceUtils.LOG_ONLY);
        Path root;
        try {
            root = Files.createTempDirectory("zkgroups-ensemble-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        TestEnsemble ensemble = new TestEnsemble(settings, root);
        try {
            ensemble.startAll();
            return ensemble;
        } catch (RuntimeException e) {
            ensemble.close();
            throw e;
        }
    }

    private void startAll() {
        for (int id = 1; id <= settings.servers(); id++) {
            servers.put(id, new Server(id));
        }
        for (Server from : servers.values()) {
            for (Server to : servers.values()) {
                if (from != to) {
                    Direction back = new Direction(to.id, from.id);
                    TcpProxy quorum = TcpProxy.start(to.quorumAddress());
                    TcpProxy election = TcpProxy.start(to.electionAddress(), advertising(back));
                    links.put(new Direction(from.id, to.id), new Link(quorum, election));
                }
            }
        }
        for (Server server : servers.values()) {
            server.start();
        }
    }

    /**
     * The election handshake (ZooKeeper's {@code QuorumCnxManager} initial message) is: protocol version, server id,
     * the sender's election address. A server that hears from a lower id closes that connection and connects back
     * to the address in the message, so the address must be the proxy of the way back, not the sender's own port.
     */
    private TcpProxy.Preamble advertising(Direction back) {
        return in -> {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            long version = in.readLong();
            out.writeLong(version);
            if (version >= 0) {
                return bytes.toByteArray(); // the oldest protocol: the id alone, no address
            }
            out.writeLong(in.readLong());
            in.readFully(new byte[in.readInt()]);
            byte[] address = ("127.0.0.1:" + links.get(back).election().port()).getBytes(StandardCharsets.US_ASCII);
            out.writeInt(address.length);
            out.write(address);
            return bytes.toByteArray();
        };
    }

    public Settings settings() {
        return settings;
    }

    /** The ids of the servers not killed. */
    public List<Integer> live() {
        return servers.values().stream().filter(s -> !s.killed).map(s -> s.id).toList();
    }

    /** A server's state as its peer sees it; {@code null} once it is killed. */
    public ServerState state(int id) {
        QuorumPeer peer = server(id).peer;
        return peer == null || server(id).killed ? null : peer.getPeerState();
    }

    /** True while the server is part of a quorum and answers clients. */
    public boolean isServing(int id) {
        Server server = server(id);
        QuorumPeer peer = server.peer;
        if (peer == null || server.killed) {
            return false;
        }
        ZooKeeperServer active = peer.getActiveServer();
        return active != null && active.isRunning();
    }

    /** The live server that leads now. */
    public int leader() {
        return live().stream().filter(id -> state(id) == ServerState.LEADING).findFirst()
                .orElseThrow(() -> new IllegalStateException("no leader now: " + states()));
    }

    /** The live servers that follow now, lowest id first. */
    public List<Integer> followers() {
        return live().stream().filter(id -> state(id) == ServerState.FOLLOWING).toList();
    }

    /** Waits until one live server leads and every other live one follows, all of them answering clients. */
    public void awaitQuorum() {
        await("a quorum of " + live()).atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(10)).until(() -> {
            List<Integer> live = live();
            long leading = live.stream().filter(id -> state(id) == ServerState.LEADING).count();
            return leading == 1 && followers().size() == live.size() - 1 && live.stream().allMatch(this::isServing);
        });
    }

    /** Cuts every link between {@code id} and the other servers; its clients still reach it. */
    public void isolate(int id) {
        server(id);
        links.forEach((direction, link) -> {
            if (direction.from() == id || direction.to() == id) {
                link.blackhole();
            }
        });
    }

    /** Cuts the links between two servers, both ways. */
    public void cut(int a, int b) {
        link(a, b).blackhole();
        link(b, a).blackhole();
    }

    /** Heals every cut link. */
    public void healAll() {
        links.values().forEach(Link::heal);
    }

    /** Stops a server as a crashed process would: its connections close and it answers no one. */
    public void kill(int id) {
        server(id).kill();
    }

    /** {@code 127.0.0.1:clientPort} of one server. */
    public String connectString(int id) {
        return "127.0.0.1:" + server(id).clientPort;
    }

    /** A started Curator client of one server only, with the given session timeout; closed with the ensemble. */
    public synchronized CuratorFramework newClient(int id, int sessionTimeoutMs) {
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(connectString(id))
                .sessionTimeoutMs(sessionTimeoutMs)
                .connectionTimeoutMs(5_000)
                .retryPolicy(new ExponentialBackoffRetry(50, 10, 500))
                .build();
        client.start();
        clients.add(client);
        try {
            if (!client.blockUntilConnected(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("no connection to server " + id + " at " + connectString(id));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return client;
    }

    @Override
    public synchronized void close() {
        clients.forEach(CuratorFramework::close);
        clients.clear();
        servers.values().forEach(Server::kill);
        links.values().forEach(Link::close);
        deleteRecursively(root);
    }

    @Override
    public String toString() {
        return "TestEnsemble" + states();
    }

    private Map<Integer, String> states() {
        return servers.keySet().stream().collect(Collectors.toMap(id -> id, id -> {
            ServerState state = state(id);
            return state == null ? "KILLED" : state + (isServing(id) ? "" : " (not serving)");
        }, (a, b) -> a, TreeMap::new));
    }

    private Server server(int id) {
        Server server = servers.get(id);
        if (server == null) {
            throw new IllegalArgumentException("no server " + id + " in " + servers.keySet());
        }
        return server;
    }

    private Link link(int from, int to) {
        server(from);
        server(to);
        Link link = links.get(new Direction(from, to));
        if (link == null) {
            throw new IllegalArgumentException("no link from a server to itself: " + from);
        }
        return link;
    }

    /** One in-process ZooKeeper server. */
    private final class Server {
        final int id;
        final int clientPort = ServerPorts.free();
        final int quorumPort = ServerPorts.free();
        final int electionPort = ServerPorts.free();
        final Path dir;
        volatile QuorumPeer peer;
        volatile boolean killed;
        private Main main;
        private Thread thread;

        Server(int id) {
            this.id = id;
            this.dir = root.resolve("server" + id);
        }

        InetSocketAddress quorumAddress() {
            return new InetSocketAddress("127.0.0.1", quorumPort);
        }

        InetSocketAddress electionAddress() {
            return new InetSocketAddress("127.0.0.1", electionPort);
        }

        void start() {
            QuorumPeerConfig config = new QuorumPeerConfig();
            try {
                Path data = Files.createDirectories(dir.resolve("data"));
                Files.writeString(data.resolve("myid"), Integer.toString(id));
                Path file = dir.resolve("zoo.cfg");
                Files.writeString(file, configText(data));
                config.parse(file.toString());
            } catch (IOException | QuorumPeerConfig.ConfigException e) {
                throw new IllegalStateException("could not configure ZooKeeper server " + id + ": " + e, e);
            }
            main = new Main();
            thread = new Thread(() -> {
                try {
                    main.runFromConfig(config);
                } catch (Exception e) {
                    LOG.error("ZooKeeper server {} stopped: {}", id, e.toString(), e);
                }
            }, "zk-ensemble-server-" + id);
            thread.setDaemon(true);
            thread.start();
        }

        /** Its own ports, and every other server at the proxy of the link from this one. */
        private String configText(Path data) {
            StringBuilder text = new StringBuilder()
                    .append("tickTime=").append(settings.tickMs()).append('\n')
                    .append("initLimit=").append(settings.initLimitTicks()).append('\n')
                    .append("syncLimit=").append(settings.syncLimitTicks()).append('\n')
                    .append("dataDir=").append(data.toAbsolutePath()).append('\n')
                    .append("clientPort=").append(clientPort).append('\n')
                    .append("clientPortAddress=127.0.0.1\n")
                    .append("minSessionTimeout=").append(2 * settings.tickMs()).append('\n')
                    .append("maxSessionTimeout=").append(MAX_SESSION_MS).append('\n')
                    .append("admin.enableServer=false\n");
            for (Server other : servers.values()) {
                int quorum = other == this ? quorumPort : links.get(new Direction(id, other.id)).quorum().port();
                int election = other == this ? electionPort : links.get(new Direction(id, other.id)).election().port();
                text.append("server.").append(other.id).append("=127.0.0.1:").append(quorum).append(':')
                        .append(election).append('\n');
            }
            return text.toString();
        }

        void kill() {
            if (killed) {
                return;
            }
            killed = true;
            if (main != null) {
                main.close();
            }
            if (thread != null) {
                try {
                    thread.join(TimeUnit.SECONDS.toMillis(10));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        /** Keeps the peer that {@code runFromConfig} creates, for its state. */
        private final class Main extends QuorumPeerMain {
            @Override
            protected QuorumPeer getQuorumPeer() throws javax.security.sasl.SaslException {
                QuorumPeer created = super.getQuorumPeer();
                peer = created;
                return created;
            }
        }
    }

    private static void deleteRecursively(Path dir) {
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
