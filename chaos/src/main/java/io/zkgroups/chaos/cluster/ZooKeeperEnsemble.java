package io.zkgroups.chaos.cluster;

import io.zkgroups.testing.ChildJvm;
import io.zkgroups.testing.TcpProxy;
import io.zkgroups.testing.ServerPorts;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.awaitility.core.ConditionTimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * Three real ZooKeeper servers ({@code QuorumPeerMain}, through {@link QuorumServerMain}), each in its own JVM with its own config and data
 * directory, so that one can be SIGKILLed and restarted with its data. Every quorum and election link between
 * two servers goes through a {@link TcpProxy} of that ordered pair: server {@code i}'s config names server
 * {@code j} by the port of proxy {@code i->j}. {@link #cutFromQuorum} closes the links of one server, whose
 * client port stays reachable, so its clients see a server that no longer serves and move on.
 * <p>
 * Server ids are 1, 2, 3. Clients of the run's own tools use {@link #connectString()} (no proxy).
 */
public final class ZooKeeperEnsemble implements AutoCloseable {

    public static final int SIZE = 3;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** How long the faults give the ensemble to elect a leader or to take a server back (~0.3 s when healthy). */
    public static final Duration RECOVERY_TIMEOUT = Duration.ofSeconds(60);

    private final Path dataRoot;
    private final Path logDir;
    private final int tickMs;
    private final int[] clientPorts = new int[SIZE + 1];
    private final int[] quorumPorts = new int[SIZE + 1];
    private final int[] electionPorts = new int[SIZE + 1];
    /** links[i][j]: the quorum and election proxies through which server i reaches server j. */
    private final TcpProxy[][][] links = new TcpProxy[SIZE + 1][SIZE + 1][];
    private final ChildJvm[] servers = new ChildJvm[SIZE + 1];
    private final int[] incarnations = new int[SIZE + 1];

    private ZooKeeperEnsemble(Path dataRoot, Path logDir, int tickMs) {
        this.dataRoot = dataRoot;
        this.logDir = logDir;
        this.tickMs = tickMs;
    }

    /** Writes the configs, starts the three servers and waits until they have a leader and two followers. */
    public static ZooKeeperEnsemble start(Path dataRoot, Path logDir, int tickMs) {
        ZooKeeperEnsemble e = new ZooKeeperEnsemble(dataRoot, logDir, tickMs);
        try {
            e.allocatePorts();
            for (int id = 1; id <= SIZE; id++) {
                e.writeConfig(id);
            }
            for (int id = 1; id <= SIZE; id++) {
                e.launch(id);
            }
            e.awaitQuorum(START_TIMEOUT);
            return e;
        } catch (RuntimeException ex) {
            e.close();
            throw ex;
        }
    }

    private void allocatePorts() {
        for (int id = 1; id <= SIZE; id++) {
            clientPorts[id] = ServerPorts.free();
            quorumPorts[id] = ServerPorts.free();
            electionPorts[id] = ServerPorts.free();
        }
        for (int i = 1; i <= SIZE; i++) {
            for (int j = 1; j <= SIZE; j++) {
                if (i != j) {
                    links[i][j] = new TcpProxy[]{
                            TcpProxy.start("zk" + i + "-zk" + j + "-quorum", quorumPorts[j]),
                            TcpProxy.start("zk" + i + "-zk" + j + "-election", electionPorts[j])};
                }
            }
        }
    }

    private void writeConfig(int id) {
        try {
            Path dir = dataDir(id);
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("myid"), id + "\n");
            StringBuilder cfg = new StringBuilder()
                    .append("tickTime=").append(tickMs).append('\n')
                    .append("initLimit=20\n")
                    .append("syncLimit=5\n")
                    .append("dataDir=").append(dir).append('\n')
                    .append("clientPort=").append(clientPorts[id]).append('\n')
                    .append("clientPortAddress=127.0.0.1\n")
                    .append("maxClientCnxns=0\n")
                    .append("admin.enableServer=false\n")
                    .append("4lw.commands.whitelist=srvr\n");
            for (int j = 1; j <= SIZE; j++) {
                int quorum = j == id ? quorumPorts[j] : links[id][j][0].port();
                int election = j == id ? electionPorts[j] : links[id][j][1].port();
                cfg.append("server.").append(j).append("=127.0.0.1:").append(quorum).append(':').append(election).append('\n');
            }
            Files.writeString(configFile(id), cfg.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the config of ZooKeeper server " + id, e);
        }
    }

    private void launch(int id) {
        incarnations[id]++;
        String name = "zk" + id + "-" + incarnations[id];
        servers[id] = ChildJvm.builder(name, QuorumServerMain.class.getName())
                .heapMb(96).jvmOptions(ChildJvm.FAST_START).jvmOptions(List.of("-Dzookeeper.forceSync=no", "-Dzookeeper.jmx.log4j.disable=true",
                        // CHAOS_ZK_LOG_LEVEL=info shows elections and syncs in stderr/zk*.stderr.log
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=" + System.getenv().getOrDefault("CHAOS_ZK_LOG_LEVEL", "warn"),
                        // the tool's simplelogger.properties (on this classpath) quiets ZooKeeper by name
                        "-Dorg.slf4j.simpleLogger.log.org.apache.zookeeper=" + System.getenv().getOrDefault("CHAOS_ZK_LOG_LEVEL", "warn"),
                        "-Dorg.slf4j.simpleLogger.showDateTime=true",
                        "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS"))
                .args(List.of(configFile(id).toString()))
                .stderrTo(logDir.resolve(name + ".stderr.log"))
                .start();
    }

    /** {@code 127.0.0.1:c1,127.0.0.1:c2,127.0.0.1:c3}, straight to the servers. */
    public String connectString() {
        return IntStream.rangeClosed(1, SIZE).mapToObj(id -> "127.0.0.1:" + clientPorts[id])
                .collect(Collectors.joining(","));
    }

    public int clientPort(int id) {
        return clientPorts[id];
    }

    public Path dataDir(int id) {
        return dataRoot.resolve("zk" + id);
    }

    private Path configFile(int id) {
        return dataRoot.resolve("zk" + id + ".cfg");
    }

    public boolean isRunning(int id) {
        return servers[id] != null && servers[id].isAlive();
    }

    /** {@code leader}, {@code follower}, or empty when the server does not serve (down, or looking for a quorum). */
    public Optional<String> mode(int id) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), clientPorts[id]), 1_000);
            s.setSoTimeout(2_000);
            OutputStream out = s.getOutputStream();
            out.write("srvr".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String reply = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            for (String line : reply.split("\n")) {
                if (line.startsWith("Mode: ")) {
                    return Optional.of(line.substring("Mode: ".length()).trim());
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The id of the server that says it leads, if exactly one does. */
    public Optional<Integer> leader() {
        List<Integer> leaders = new ArrayList<>();
        for (int id = 1; id <= SIZE; id++) {
            if (mode(id).filter("leader"::equals).isPresent()) {
                leaders.add(id);
            }
        }
        return leaders.size() == 1 ? Optional.of(leaders.get(0)) : Optional.empty();
    }

    /**
     * Waits until one running server leads and every other running, connected server follows; on a timeout the
     * exception names each server's mode.
     */
    public void awaitQuorum(Duration timeout) {
        try {
            await("ZooKeeper ensemble has a leader and all its running servers serve").atMost(timeout)
                    .pollInterval(Duration.ofMillis(100))
                    .until(this::hasQuorum);
        } catch (ConditionTimeoutException e) {
            throw new ChaosException("the ZooKeeper ensemble has no leader with every running server serving after "
                    + timeout.toSeconds() + " s: " + modes() + " (stderr/zk*.stderr.log; CHAOS_ZK_LOG_LEVEL=info shows "
                    + "the elections)", e);
        }
    }

    /** {@code zk1=follower, zk2=leader, zk3=down}; {@code not serving} for a running server without a quorum. */
    public String modes() {
        return IntStream.rangeClosed(1, SIZE).mapToObj(id -> "zk" + id + "="
                        + (isRunning(id) ? mode(id).orElse("not serving") : "down"))
                .collect(Collectors.joining(", "));
    }

    private boolean hasQuorum() {
        int leaders = 0;
        for (int id = 1; id <= SIZE; id++) {
            if (!isRunning(id)) {
                continue;
            }
            Optional<String> mode = mode(id);
            if (mode.isEmpty()) {
                return false;
            }
            leaders += mode.get().equals("leader") ? 1 : 0;
        }
        return leaders == 1;
    }

    /** Waits until server {@code id} serves again (leader or follower). */
    public void awaitServing(int id, Duration timeout) {
        await("ZooKeeper server " + id + " serves").atMost(timeout).pollInterval(Duration.ofMillis(100))
                .until(() -> mode(id).isPresent());
    }

    /** Waits until server {@code id} stops serving clients (it has noticed it lost the quorum). */
    public void awaitNotServing(int id, Duration timeout) {
        await("ZooKeeper server " + id + " stops serving").atMost(timeout).pollInterval(Duration.ofMillis(50))
                .until(() -> mode(id).isEmpty());
    }

    /** SIGKILL of server {@code id}. */
    public void kill(int id) {
        servers[id].kill();
    }

    /** Starts server {@code id} again with its data directory. */
    public void restart(int id) {
        if (isRunning(id)) {
            throw new IllegalStateException("ZooKeeper server " + id + " still runs");
        }
        launch(id);
    }

    /** Closes every quorum and election link of server {@code id}, both ways; its client port stays open. */
    public void cutFromQuorum(int id) {
        for (int j = 1; j <= SIZE; j++) {
            if (j != id) {
                for (TcpProxy p : links[id][j]) {
                    p.cut();
                }
                for (TcpProxy p : links[j][id]) {
                    p.cut();
                }
            }
        }
    }

    /** Undoes {@link #cutFromQuorum}. */
    public void heal(int id) {
        for (int j = 1; j <= SIZE; j++) {
            if (j != id) {
                for (TcpProxy p : links[id][j]) {
                    p.heal();
                }
                for (TcpProxy p : links[j][id]) {
                    p.heal();
                }
            }
        }
    }

    /** The pids of the running servers, for the run log. */
    public String describe() {
        return IntStream.rangeClosed(1, SIZE).mapToObj(id -> "zk" + id + "=" + (servers[id] == null ? "-" : servers[id].toString())
                + " client " + clientPorts[id]).collect(Collectors.joining(", "));
    }

    @Override
    public void close() {
        for (int id = 1; id <= SIZE; id++) {
            if (servers[id] != null && servers[id].isAlive()) {
                servers[id].terminate(Duration.ofSeconds(10));
            }
        }
        for (TcpProxy[][] row : links) {
            for (TcpProxy[] pair : row) {
                if (pair != null) {
                    for (TcpProxy p : pair) {
                        p.close();
                    }
                }
            }
        }
    }
}
