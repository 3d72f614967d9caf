package io.zkgroups.testing;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.server.quorum.QuorumPeer.ServerState;
import org.apache.zookeeper.util.ServiceUtils;
import org.awaitility.core.ConditionTimeoutException;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;

/**
 * A real ZooKeeper ensemble (servers numbered from 1, bound to 127.0.0.1) whose servers reach each other only through
 * {@link TcpProxy proxies}: one per direction of every pair of servers, for the quorum port (follower to leader) and
 * the election port. A test can so cut a server off from the others while its own clients still reach it
 * ({@link #isolate}), or cut one pair ({@link #cut}). Client ports are not proxied.
 * <p>
 * Why not curator-test's {@code TestingCluster}: its servers talk to each other directly, so no link between two of
 * them can be cut while their clients stay connected, and its servers all live in the test JVM. Here the servers run in
 * this JVM ({@link EnsembleServer.InProcess}, their peer state visible: {@link #state}) or, with
 * {@link Settings#inChildJvms}, each in a child JVM ({@link EnsembleServer.Child}) that can be SIGKILLed and started
 * again with its data ({@link #kill}, {@link #restart}), as the chaos runs do.
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

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    /**
     * @param servers        how many servers (3 tolerates one down or cut off)
     * @param tickMs         ZooKeeper's tickTime; sessions negotiate to at least 2 ticks
     * @param initLimitTicks ticks a follower may take to connect to and sync with a leader
     * @param syncLimitTicks ticks a follower and its leader wait for each other before giving up: how long a cut-off
     *                       follower keeps serving its clients from its own copy
     * @param maxSessionMs   the longest session the servers grant; 0: ZooKeeper's default, 20 ticks
     * @param dataRoot       where the servers' data and configs go, kept after the close; null: a temp directory,
     *                       deleted at the close
     * @param childJvmLogDir null: every server in this JVM; else every server in a child JVM, its stderr in this
     *                       directory
     * @param childJvmOptions extra JVM options of the child servers (System properties of ZooKeeper, log levels)
     * @param childReleaseClasspath null: the child servers run this JVM's ZooKeeper; else another release's jars
     *                       (e.g. from the classpath file of {@code servers/zookeeper-3.4}), first on their classpath
     */
    public record Settings(int servers, int tickMs, int initLimitTicks, int syncLimitTicks, int maxSessionMs,
                           Path dataRoot, Path childJvmLogDir, List<String> childJvmOptions,
                           String childReleaseClasspath) {

        public Settings(int servers, int tickMs, int initLimitTicks, int syncLimitTicks, int maxSessionMs,
                        Path dataRoot, Path childJvmLogDir, List<String> childJvmOptions) {
            this(servers, tickMs, initLimitTicks, syncLimitTicks, maxSessionMs, dataRoot, childJvmLogDir,
                    childJvmOptions, null);
        }

        public Settings {
            if (servers < 1 || tickMs < 1 || initLimitTicks < 1 || syncLimitTicks < 1 || maxSessionMs < 0) {
                throw new IllegalArgumentException("every setting must be positive: " + this);
            }
            childJvmOptions = List.copyOf(childJvmOptions);
        }

        /** Three servers in this JVM, a 100 ms tick, 10 ticks to join a leader and 10 to give up on it, 60 s sessions. */
        public static Settings threeServers() {
            return new Settings(3, 100, 10, 10, 60_000, null, null, List.of());
        }

        public Settings withSyncLimitTicks(int ticks) {
            return new Settings(servers, tickMs, initLimitTicks, ticks, maxSessionMs, dataRoot, childJvmLogDir,
                    childJvmOptions, childReleaseClasspath);
        }

        /** Keeps the servers' data ({@code zk<id>/}) and configs ({@code zk<id>.cfg}) in {@code dir}. */
        public Settings inDirectory(Path dir) {
            return new Settings(servers, tickMs, initLimitTicks, syncLimitTicks, maxSessionMs, dir, childJvmLogDir,
                    childJvmOptions, childReleaseClasspath);
        }

        /** Every server in a child JVM with these options, its stderr in {@code logDir}. */
        public Settings inChildJvms(Path logDir, List<String> jvmOptions) {
            return new Settings(servers, tickMs, initLimitTicks, syncLimitTicks, maxSessionMs, dataRoot, logDir,
                    jvmOptions, childReleaseClasspath);
        }

        /**
         * The child servers run another ZooKeeper release: its jars ({@code classpath}) come first on their
         * classpath, then this module (the server's main class and its orphan guard). Only with {@link #inChildJvms}.
         */
        public Settings onRelease(String classpath) {
            return new Settings(servers, tickMs, initLimitTicks, syncLimitTicks, maxSessionMs, dataRoot, childJvmLogDir,
                    childJvmOptions, classpath);
        }
    }

    private record Direction(int from, int to) {
    }

    /** The two proxies a server reaches another server through. */
    private record Link(TcpProxy quorum, TcpProxy election) {
        void mode(TcpProxy.Mode mode) {
            quorum.mode(mode);
            election.mode(mode);
        }

        void close() {
            quorum.close();
            election.close();
        }
    }

    private final Settings settings;
    private final Path root;
    private final Map<Integer, EnsembleServer> servers = new TreeMap<>();
    private final Map<Direction, Link> links = new LinkedHashMap<>();
    private final List<CuratorFramework> clients = new ArrayList<>();

    private TestEnsemble(Settings settings, Path root) {
        this.settings = settings;
        this.root = root;
    }

    /** Starts the servers; they elect a leader in the background ({@link #awaitQuorum()} waits for it). */
    public static TestEnsemble start(Settings settings) {
        // A server in this JVM that fails (e.g. cannot bind a port) must fail the test, not end the test JVM.
        ServiceUtils.setSystemExitProcedure(ServiceUtils.LOG_ONLY);
        Path root;
        try {
            root = settings.dataRoot() != null ? Files.createDirectories(settings.dataRoot())
                    : Files.createTempDirectory("zkgroups-ensemble-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the ensemble's directory", e);
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
            servers.put(id, settings.childJvmLogDir() == null ? new EnsembleServer.InProcess(id, root)
                    : new EnsembleServer.Child(id, root, settings.childJvmLogDir(), settings.childJvmOptions(),
                    settings.childReleaseClasspath()));
        }
        for (EnsembleServer from : servers.values()) {
            for (EnsembleServer to : servers.values()) {
                if (from != to) {
                    Direction back = new Direction(to.id, from.id);
                    String name = "zk" + from.id + "-zk" + to.id;
                    TcpProxy quorum = TcpProxy.start(name + "-quorum", to.quorumAddress(), null);
                    TcpProxy election = TcpProxy.start(name + "-election", to.electionAddress(), advertising(back));
                    links.put(new Direction(from.id, to.id), new Link(quorum, election));
                }
            }
        }
        for (EnsembleServer server : servers.values()) {
            writeConfig(server);
            server.start();
        }
    }

    /** Its own ports, and every other server at the proxy of the link from this one. */
    private void writeConfig(EnsembleServer server) {
        StringBuilder text = new StringBuilder()
                .append("tickTime=").append(settings.tickMs()).append('\n')
                .append("initLimit=").append(settings.initLimitTicks()).append('\n')
                .append("syncLimit=").append(settings.syncLimitTicks()).append('\n')
                .append("dataDir=").append(server.dataDir.toAbsolutePath()).append('\n')
                .append("clientPort=").append(server.clientPort).append('\n')
                .append("clientPortAddress=127.0.0.1\n")
                .append("maxClientCnxns=0\n")
                .append("admin.enableServer=false\n")
                .append("4lw.commands.whitelist=srvr\n");
        if (settings.maxSessionMs() > 0) {
            text.append("minSessionTimeout=").append(2 * settings.tickMs()).append('\n')
                    .append("maxSessionTimeout=").append(settings.maxSessionMs()).append('\n');
        }
        for (EnsembleServer other : servers.values()) {
            int quorum = other == server ? server.quorumPort : links.get(new Direction(server.id, other.id)).quorum().port();
            int election = other == server ? server.electionPort
                    : links.get(new Direction(server.id, other.id)).election().port();
            text.append("server.").append(other.id).append("=127.0.0.1:").append(quorum).append(':')
                    .append(election).append('\n');
        }
        try {
            Files.createDirectories(server.dataDir);
            Files.writeString(server.dataDir.resolve("myid"), server.id + "\n");
            Files.writeString(server.configFile, text.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the config of ZooKeeper server " + server.id, e);
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

    /** The ids of the servers running (not killed). */
    public List<Integer> live() {
        return servers.values().stream().filter(EnsembleServer::isRunning).map(s -> s.id).toList();
    }

    /** A server's peer state; {@code null} once it is killed. Only for servers in this JVM. */
    public ServerState state(int id) {
        return server(id).state();
    }

    /** {@code leader} or {@code follower} while the server answers clients as part of a quorum; empty otherwise. */
    public Optional<String> mode(int id) {
        return server(id).mode();
    }

    /** True while the server is part of a quorum and answers clients. */
    public boolean isServing(int id) {
        return mode(id).isPresent();
    }

    /** The live server that leads now. */
    public int leader() {
        return soleLeader().orElseThrow(() -> new IllegalStateException("no single leader now: " + modes()));
    }

    /** The server that says it leads, if exactly one does. */
    public Optional<Integer> soleLeader() {
        List<Integer> leaders = live().stream().filter(id -> mode(id).filter("leader"::equals).isPresent()).toList();
        return leaders.size() == 1 ? Optional.of(leaders.get(0)) : Optional.empty();
    }

    /** The live servers that follow now, lowest id first. */
    public List<Integer> followers() {
        return live().stream().filter(id -> mode(id).filter("follower"::equals).isPresent()).toList();
    }

    /** Waits (up to 60 s) until one live server leads and every other live one follows, all answering clients. */
    public void awaitQuorum() {
        awaitQuorum(START_TIMEOUT);
    }

    /** As {@link #awaitQuorum()}; on a timeout the exception names each server's mode. */
    public void awaitQuorum(Duration timeout) {
        try {
            await("a quorum of " + live()).atMost(timeout).pollInterval(Duration.ofMillis(10)).until(() -> {
                List<Integer> live = live();
                return live.stream().allMatch(this::isServing) && soleLeader().isPresent();
            });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("the ZooKeeper ensemble has no leader with every running server serving "
                    + "after " + timeout.toSeconds() + " s: " + modes(), e);
        }
    }

    /** Waits until server {@code id} serves (leader or follower). */
    public void awaitServing(int id, Duration timeout) {
        await("ZooKeeper server " + id + " serves").atMost(timeout).pollInterval(Duration.ofMillis(50))
                .until(() -> isServing(id));
    }

    /** Waits until server {@code id} stops serving clients (it has noticed it lost the quorum). */
    public void awaitNotServing(int id, Duration timeout) {
        await("ZooKeeper server " + id + " stops serving").atMost(timeout).pollInterval(Duration.ofMillis(50))
                .until(() -> !isServing(id));
    }

    /** {@code zk1=follower, zk2=leader, zk3=down}; {@code not serving} for a running server without a quorum. */
    public String modes() {
        return servers.values().stream().map(s -> "zk" + s.id + "="
                + (s.isRunning() ? s.mode().orElse("not serving") : "down")).collect(Collectors.joining(", "));
    }

    /** Cuts every link between {@code id} and the other servers as a partition (no close); its clients still reach it. */
    public void isolate(int id) {
        isolate(id, TcpProxy.Mode.BLACKHOLE);
    }

    /** Puts every link between {@code id} and the other servers, both ways, in {@code mode}. */
    public void isolate(int id, TcpProxy.Mode mode) {
        server(id);
        links.forEach((direction, link) -> {
            if (direction.from() == id || direction.to() == id) {
                link.mode(mode);
            }
        });
    }

    /** Cuts the links between two servers, both ways, as a partition. */
    public void cut(int a, int b) {
        link(a, b).mode(TcpProxy.Mode.BLACKHOLE);
        link(b, a).mode(TcpProxy.Mode.BLACKHOLE);
    }

    /** Heals the links of server {@code id}. */
    public void heal(int id) {
        isolate(id, TcpProxy.Mode.PASS);
    }

    /** Heals every link. */
    public void healAll() {
        links.values().forEach(link -> link.mode(TcpProxy.Mode.PASS));
    }

    /** Stops a server as a crashed process would (SIGKILL for a child JVM): its connections close. */
    public void kill(int id) {
        server(id).kill();
    }

    /** Starts server {@code id} again with its data directory. */
    public void restart(int id) {
        if (server(id).isRunning()) {
            throw new IllegalStateException("ZooKeeper server " + id + " still runs");
        }
        server(id).start();
    }

    /** {@code 127.0.0.1:clientPort} of one server. */
    public String connectString(int id) {
        return "127.0.0.1:" + server(id).clientPort;
    }

    /** Every server's {@code 127.0.0.1:clientPort}, straight to the servers. */
    public String connectString() {
        return servers.keySet().stream().map(this::connectString).collect(Collectors.joining(","));
    }

    public int clientPort(int id) {
        return server(id).clientPort;
    }

    /** The server's data directory ({@code myid}, {@code version-2/}). */
    public Path dataDir(int id) {
        return server(id).dataDir;
    }

    /** Each server, its process and client port, for a run's log. */
    public String describe() {
        return servers.values().stream().map(EnsembleServer::describe).collect(Collectors.joining(", "));
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
        servers.values().forEach(EnsembleServer::stop);
        links.values().forEach(Link::close);
        if (settings.dataRoot() == null) {
            TestZooKeeper.deleteRecursively(root);
        }
    }

    @Override
    public String toString() {
        return "TestEnsemble{" + modes() + "}";
    }

    private EnsembleServer server(int id) {
        EnsembleServer server = servers.get(id);
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
}
