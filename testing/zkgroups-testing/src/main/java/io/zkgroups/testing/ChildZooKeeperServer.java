package io.zkgroups.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

import static org.awaitility.Awaitility.await;

/**
 * A real standalone ZooKeeper server in a {@link ChildJvm}, bound to 127.0.0.1, for what an in-process curator-test
 * {@code TestingServer} cannot be:
 * <ul>
 *   <li>a server of another release (3.4.14, 3.5.10: what 0.8-era and Kafka 2.x ensembles run), from the classpath
 *       file its {@code zookeeperNN-server} module writes ({@link Settings#release}). The suites of older ensembles
 *       pick it through the system properties {@value #VERSION_PROPERTY} and {@value #CLASSPATH_PROPERTY} (set by
 *       failsafe's executions for those servers): {@link TestZooKeeper#start()} then starts one of these;</li>
 *   <li>a server with settings it only takes through System properties, which would leak into every other server and
 *       client of a test JVM: TLS on a secure client port ({@link Settings#withTls}), SASL with a JAAS file
 *       ({@link Settings#withSasl}). It runs this JVM's ZooKeeper through {@link ZooKeeperServerChild}.</li>
 * </ul>
 */
public final class ChildZooKeeperServer implements AutoCloseable {

    public static final String VERSION_PROPERTY = "zkgroups.test.zookeeper.version";
    public static final String CLASSPATH_PROPERTY = "zkgroups.test.zookeeper.classpathFile";

    private final String version;
    private final ChildJvm process;
    private final Path dir;
    private final Path dataDir;
    private final int clientPort;
    private final int secureClientPort;

    private ChildZooKeeperServer(String version, ChildJvm process, Path dir, Path dataDir, int clientPort,
                                 int secureClientPort) {
        this.version = version;
        this.process = process;
        this.dir = dir;
        this.dataDir = dataDir;
        this.clientPort = clientPort;
        this.secureClientPort = secureClientPort;
    }

    /** Server settings: zoo.cfg properties, the child JVM's options, the release. */
    public static final class Settings {
        private final Properties config = new Properties();
        private final List<String> jvmOptions = new ArrayList<>();
        private int tickMs = 200;
        private boolean tls;
        private String release;
        private String releaseClasspath;

        /** The server's tickTime (200 ms unless set): sessions negotiate between 2 and 20 ticks by default. */
        public Settings tickMs(int value) {
            tickMs = value;
            return this;
        }

        /** Runs ZooKeeper {@code version} from {@code classpath} instead of this JVM's (no TLS or SASL then). */
        public Settings release(String version, String classpath) {
            release = version;
            releaseClasspath = classpath;
            return this;
        }

        /** Adds a TLS client port (Netty) with {@code stores}; clients must present a certificate it trusts. */
        public Settings withTls(TestKeyStores stores) {
            tls = true;
            config.setProperty("serverCnxnFactory", "org.apache.zookeeper.server.NettyServerCnxnFactory");
            config.setProperty("ssl.keyStore.location", stores.keyStore().toString());
            config.setProperty("ssl.keyStore.password", stores.password());
            config.setProperty("ssl.trustStore.location", stores.trustStore().toString());
            config.setProperty("ssl.trustStore.password", stores.password());
            return this;
        }

        /**
         * SASL: a JAAS file for the server ({@code Server} section) and ZooKeeper's SASL authentication provider.
         * With {@code enforce} true, clients that do not authenticate with SASL are refused.
         */
        public Settings withSasl(Path serverJaasFile, boolean enforce) {
            jvmOptions.add("-Djava.security.auth.login.config=" + serverJaasFile);
            config.setProperty("authProvider.sasl", "org.apache.zookeeper.server.auth.SASLAuthenticationProvider");
            // ZooKeeper's FIPS mode (default on) forbids DIGEST-MD5
            jvmOptions.add("-Dzookeeper.fips-mode=false");
            if (enforce) {
                config.setProperty("enforce.auth.enabled", "true");
                config.setProperty("enforce.auth.schemes", "sasl");
            }
            return this;
        }

        /** Any zoo.cfg property. */
        public Settings with(String key, String value) {
            config.setProperty(key, value);
            return this;
        }
    }

    public static Settings settings() {
        return new Settings();
    }

    /** The server version the system properties ask for, if any. */
    public static Optional<String> requestedVersion() {
        String version = System.getProperty(VERSION_PROPERTY, "").trim();
        return version.isEmpty() ? Optional.empty() : Optional.of(version);
    }

    /** Starts the server of the release the system properties ask for, and waits until it answers. */
    public static ChildZooKeeperServer startRequested(int tickMs, int minSessionMs, int maxSessionMs) {
        String version = requestedVersion().orElseThrow(() -> new IllegalStateException(VERSION_PROPERTY + " is not set"));
        String classpathFile = System.getProperty(CLASSPATH_PROPERTY, "");
        if (classpathFile.isBlank()) {
            throw new IllegalStateException(CLASSPATH_PROPERTY + " must name the classpath file of ZooKeeper " + version);
        }
        String classpath;
        try {
            classpath = Files.readString(Path.of(classpathFile)).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the classpath file of ZooKeeper " + version + ": " + classpathFile, e);
        }
        return start(settings().release(version, classpath).tickMs(tickMs)
                .with("minSessionTimeout", Integer.toString(minSessionMs))
                .with("maxSessionTimeout", Integer.toString(maxSessionMs)));
    }

    /** Starts the server and waits until it serves (at most 60 s). */
    public static ChildZooKeeperServer start(Settings settings) {
        String version = settings.release != null ? settings.release : org.apache.zookeeper.Version.getFullVersion();
        Path dir;
        try {
            dir = Files.createTempDirectory("zkgroups-zk-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for ZooKeeper " + version, e);
        }
        int clientPort = ServerPorts.free();
        int securePort = settings.tls ? ServerPorts.free() : -1;
        Properties config = new Properties();
        config.putAll(settings.config);
        config.setProperty("tickTime", Integer.toString(settings.tickMs));
        config.setProperty("clientPort", Integer.toString(clientPort));
        config.setProperty("clientPortAddress", "127.0.0.1");
        config.setProperty("maxClientCnxns", "0");
        config.setProperty("admin.enableServer", "false");
        config.setProperty("4lw.commands.whitelist", "srvr");
        if (settings.tls) {
            config.setProperty("secureClientPort", Integer.toString(securePort));
            config.setProperty("secureClientPortAddress", "127.0.0.1");
        }
        Path log = dir.resolve("server.log");
        ChildZooKeeperServer server = null;
        try {
            if (settings.release != null) {
                config.setProperty("dataDir", dir.resolve("data").toString());
                ChildJvm process = ChildJvm.builder("zookeeper-" + version, "org.apache.zookeeper.server.ZooKeeperServerMain")
                        .classpath(settings.releaseClasspath).heapMb(96)
                        .jvmOptions(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                                "-Dzookeeper.admin.enableServer=false", "-Dzookeeper.jmx.log4j.disable=true",
                                "-Dlog4j.configuration=" + log4jConfig(dir).toUri()))
                        .args(List.of(writeConfig(dir, config).toString()))
                        .outputTo(log)
                        .start();
                server = new ChildZooKeeperServer(version, process, dir, dir.resolve("data"), clientPort, securePort);
                ChildZooKeeperServer started = server;
                await("ZooKeeper " + version + " answering on port " + clientPort).atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> !process.isAlive() || started.srvr().contains("Zookeeper version: " + version));
                if (!process.isAlive()) {
                    throw new IllegalStateException("ZooKeeper " + version + " exited at start: " + server.log());
                }
            } else {
                Path baseDir = dir.resolve("server");
                ChildJvm process = ChildJvm.builder("zookeeper-child", ZooKeeperServerChild.class.getName())
                        .heapMb(96).jvmOptions(List.of("-XX:+UseSerialGC")).jvmOptions(settings.jvmOptions)
                        .args(List.of(writeConfig(dir, config).toString(), baseDir.toString()))
                        .stderrTo(log)
                        .start();
                server = new ChildZooKeeperServer(version, process, dir, baseDir.resolve("data"), clientPort, securePort);
                ChildZooKeeperServer started = server;
                process.output().requireLine(0, "READY"::equals, Duration.ofSeconds(60), "READY from the ZooKeeper child",
                        message -> new AssertionError(message + "; its log: " + started.log()));
            }
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start ZooKeeper " + version, e);
        } catch (RuntimeException | Error e) {
            if (server != null) {
                server.close();
            }
            throw e;
        }
    }

    private static Path writeConfig(Path dir, Properties config) throws IOException {
        Path file = dir.resolve("zoo.cfg");
        try (OutputStream out = Files.newOutputStream(file)) {
            config.store(out, null);
        }
        return file;
    }

    private static Path log4jConfig(Path dir) throws IOException {
        Path file = dir.resolve("log4j.properties");
        Files.writeString(file, String.join("\n",
                "log4j.rootLogger=WARN, out",
                "log4j.appender.out=org.apache.log4j.ConsoleAppender",
                "log4j.appender.out.layout=org.apache.log4j.PatternLayout",
                "log4j.appender.out.layout.ConversionPattern=%d{HH:mm:ss,SSS} %-5p %c{1} - %m%n",
                ""));
        return file;
    }

    public String version() {
        return version;
    }

    public int port() {
        return clientPort;
    }

    /** {@code 127.0.0.1:port} of the plaintext port. */
    public String connectString() {
        return "127.0.0.1:" + clientPort;
    }

    /** {@code 127.0.0.1:port} of the TLS port. */
    public String secureConnectString() {
        if (secureClientPort < 0) {
            throw new IllegalStateException("this server has no TLS port: start it withTls(...)");
        }
        return "127.0.0.1:" + secureClientPort;
    }

    /** The server's {@code dataDir}. */
    public Path dataDir() {
        return dataDir;
    }

    /** The server's temp directory, for files a test wants next to the server's. */
    public Path dir() {
        return dir;
    }

    /** The server's answer to {@code srvr}, empty if it does not answer (yet). */
    public String srvr() {
        return srvr(connectString());
    }

    /** The answer to {@code srvr} of the server at {@code hostPort}, empty if it does not answer. */
    public static String srvr(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))), 500);
            socket.setSoTimeout(2_000);
            socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException notYet) {
            return "";
        }
    }

    /** What the server logged (WARN and above for another release, its stderr for this JVM's). */
    public String log() {
        return process.logTail(Integer.MAX_VALUE);
    }

    /**
     * Stops the server (this JVM's: the end of its stdin; another release's: SIGTERM), SIGKILL after 20 s; deletes the
     * server's directory.
     */
    @Override
    public void close() {
        try {
            if (version.equals(org.apache.zookeeper.Version.getFullVersion())) {
                process.closeStdin();
                process.awaitTermination(Duration.ofSeconds(20));
            } else {
                process.terminate(Duration.ofSeconds(20));
            }
        } finally {
            TestZooKeeper.deleteRecursively(dir);
        }
    }

    @Override
    public String toString() {
        return "ZooKeeper " + version + " child pid " + process.pid() + " on " + connectString()
                + (secureClientPort < 0 ? "" : " and TLS " + secureConnectString());
    }
}
