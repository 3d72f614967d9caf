package io.zkgroups.testing;

import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.quorum.QuorumPeer;
import org.apache.zookeeper.server.quorum.QuorumPeer.ServerState;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One server of a {@link TestEnsemble}: its ports, its data directory ({@code <root>/zk<id>}, with {@code myid}) and its
 * config file ({@code <root>/zk<id>.cfg}, written by the ensemble), run in this JVM or in a child JVM.
 */
abstract class EnsembleServer {

    private static final Logger LOG = LoggerFactory.getLogger(EnsembleServer.class);

    final int id;
    final int clientPort = ServerPorts.free();
    final int quorumPort = ServerPorts.free();
    final int electionPort = ServerPorts.free();
    final Path dataDir;
    final Path configFile;

    EnsembleServer(int id, Path root) {
        this.id = id;
        this.dataDir = root.resolve("zk" + id);
        this.configFile = root.resolve("zk" + id + ".cfg");
    }

    InetSocketAddress quorumAddress() {
        return new InetSocketAddress("127.0.0.1", quorumPort);
    }

    InetSocketAddress electionAddress() {
        return new InetSocketAddress("127.0.0.1", electionPort);
    }

    /** Starts (or starts again, with its data) from its config file. */
    abstract void start();

    /** Stops it as a crashed process would: its connections close and it answers no one. */
    abstract void kill();

    /** Stops it for good at the ensemble's close. */
    abstract void stop();

    abstract boolean isRunning();

    /** {@code leader} or {@code follower} while it serves clients as part of a quorum; empty otherwise. */
    abstract Optional<String> mode();

    /** Its peer's state; only for a server in this JVM. */
    abstract ServerState state();

    abstract String describe();

    /** A server in this JVM: a {@link QuorumPeerMain} on a thread of its own, its peer kept for its state. */
    static final class InProcess extends EnsembleServer {
        private volatile QuorumPeer peer;
        private volatile boolean killed;
        private Main main;
        private Thread thread;

        InProcess(int id, Path root) {
            super(id, root);
        }

        @Override
        void start() {
            QuorumPeerConfig config = new QuorumPeerConfig();
            try {
                config.parse(configFile.toString());
            } catch (QuorumPeerConfig.ConfigException e) {
                throw new IllegalStateException("could not configure ZooKeeper server " + id + ": " + e, e);
            }
            killed = false;
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

        @Override
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

        @Override
        void stop() {
            kill();
        }

        @Override
        boolean isRunning() {
            return main != null && !killed;
        }

        @Override
        ServerState state() {
            QuorumPeer current = peer;
            return current == null || killed ? null : current.getPeerState();
        }

        @Override
        Optional<String> mode() {
            QuorumPeer current = peer;
            if (current == null || killed) {
                return Optional.empty();
            }
            ZooKeeperServer active = current.getActiveServer();
            if (active == null || !active.isRunning()) {
                return Optional.empty();
            }
            return switch (current.getPeerState()) {
                case LEADING -> Optional.of("leader");
                case FOLLOWING -> Optional.of("follower");
                default -> Optional.empty();
            };
        }

        @Override
        String describe() {
            return "zk" + id + " in this JVM, client " + clientPort;
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

    /**
     * A server in a {@link ChildJvm} ({@link QuorumPeerChild}): it can be SIGKILLed, SIGSTOPped and started again
     * with its data, and its System properties touch no other server. Its state comes from {@code srvr}.
     */
    static final class Child extends EnsembleServer {
        private final Path logDir;
        private final List<String> jvmOptions;
        private final String classpath;
        private ChildJvm jvm;
        private int incarnation;

        /** {@code releaseClasspath}: another ZooKeeper release's jars, or null for this JVM's ZooKeeper. */
        Child(int id, Path root, Path logDir, List<String> jvmOptions, String releaseClasspath) {
            super(id, root);
            this.logDir = logDir;
            this.jvmOptions = jvmOptions;
            this.classpath = releaseClasspath == null ? System.getProperty("java.class.path")
                    : releaseClasspath + java.io.File.pathSeparator + whereThisModuleIs();
        }

        /** The release's ZooKeeper classes come first; this module adds only QuorumPeerChild and its orphan guard. */
        private static String whereThisModuleIs() {
            try {
                return Path.of(QuorumPeerChild.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                        .toString();
            } catch (java.net.URISyntaxException e) {
                throw new IllegalStateException("cannot locate " + QuorumPeerChild.class.getName(), e);
            }
        }

        @Override
        void start() {
            incarnation++;
            String name = "zk" + id + "-" + incarnation;
            jvm = ChildJvm.builder(name, QuorumPeerChild.class.getName()).classpath(classpath)
                    .heapMb(96).jvmOptions(ChildJvm.FAST_START).jvmOptions(jvmOptions)
                    .args(List.of(configFile.toString()))
                    .stderrTo(logDir.resolve(name + ".stderr.log"))
                    .start();
        }

        @Override
        void kill() {
            jvm.kill();
        }

        @Override
        void stop() {
            if (jvm != null && jvm.isAlive()) {
                jvm.terminate(Duration.ofSeconds(10));
            }
        }

        @Override
        boolean isRunning() {
            return jvm != null && jvm.isAlive();
        }

        @Override
        ServerState state() {
            throw new UnsupportedOperationException("server " + id + " runs in a child JVM: use mode(" + id + ")");
        }

        @Override
        Optional<String> mode() {
            return srvrLine("Mode: ");
        }

        /** The release the server reports ({@code 3.4.14}), empty when it does not answer. */
        Optional<String> version() {
            return srvrLine("Zookeeper version: ").map(v -> v.replaceAll("[-, ].*", ""));
        }

        private Optional<String> srvrLine(String prefix) {
            for (String line : ChildZooKeeperServer.srvr("127.0.0.1:" + clientPort).split("\n")) {
                if (line.startsWith(prefix)) {
                    return Optional.of(line.substring(prefix.length()).trim());
                }
            }
            return Optional.empty();
        }

        @Override
        String describe() {
            return "zk" + id + "=" + (jvm == null ? "-" : jvm.toString()) + " client " + clientPort + " version "
                    + version().orElse("?");
        }
    }
}
