package io.zkgroups.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * A real standalone ZooKeeper server of another release (3.4.14, 3.5.10: what 0.8-era and Kafka 2.x ensembles run) in
 * a child JVM, from the classpath file its {@code zookeeperNN-server} module writes. Bound to 127.0.0.1, with the tick
 * of {@link TestZooKeeper} so sessions can be as short as there.
 * <p>
 * The suites of older ensembles pick it through the system properties {@value #VERSION_PROPERTY} and
 * {@value #CLASSPATH_PROPERTY} (set by failsafe's executions for those servers): {@link TestZooKeeper#start()} then
 * starts one of these instead of an in-process 3.9 server.
 */
public final class ChildZooKeeperServer implements AutoCloseable {

    public static final String VERSION_PROPERTY = "zkgroups.test.zookeeper.version";
    public static final String CLASSPATH_PROPERTY = "zkgroups.test.zookeeper.classpathFile";

    private final String version;
    private final int port;
    private final Path dir;
    private final Process process;

    private ChildZooKeeperServer(String version, int port, Path dir, Process process) {
        this.version = version;
        this.port = port;
        this.dir = dir;
        this.process = process;
    }

    /** The server version the system properties ask for, if any. */
    public static Optional<String> requestedVersion() {
        String version = System.getProperty(VERSION_PROPERTY, "").trim();
        return version.isEmpty() ? Optional.empty() : Optional.of(version);
    }

    /** Starts the requested server and waits until it answers. */
    public static ChildZooKeeperServer startRequested(int tickMs, int minSessionMs, int maxSessionMs) {
        String version = requestedVersion().orElseThrow(() -> new IllegalStateException(VERSION_PROPERTY + " is not set"));
        String classpathFile = System.getProperty(CLASSPATH_PROPERTY, "");
        if (classpathFile.isBlank()) {
            throw new IllegalStateException(CLASSPATH_PROPERTY + " must name the classpath file of ZooKeeper " + version);
        }
        try {
            String classpath = Files.readString(Path.of(classpathFile)).trim();
            Path dir = Files.createTempDirectory("zkgroups-zk" + version + "-");
            int port = freePort();
            Path config = dir.resolve("zoo.cfg");
            Files.writeString(config, String.join("\n",
                    "tickTime=" + tickMs,
                    "minSessionTimeout=" + minSessionMs,
                    "maxSessionTimeout=" + maxSessionMs,
                    "dataDir=" + dir.resolve("data"),
                    "clientPort=" + port,
                    "clientPortAddress=127.0.0.1",
                    "maxClientCnxns=0",
                    "admin.enableServer=false",
                    "4lw.commands.whitelist=srvr",
                    ""));
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            Process process = new ProcessBuilder(List.of(java.toString(), "-Xmx96m", "-XX:+UseSerialGC",
                    "-XX:TieredStopAtLevel=1", "-Dzookeeper.admin.enableServer=false",
                    "-Dzookeeper.jmx.log4j.disable=true", "-Dlog4j.configuration=" + log4jConfig(dir).toUri(),
                    "-cp", classpath, "org.apache.zookeeper.server.ZooKeeperServerMain", config.toString()))
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("server.log").toFile())
                    .start();
            ChildZooKeeperServer server = new ChildZooKeeperServer(version, port, dir, process);
            try {
                await("ZooKeeper " + version + " answering on port " + port).atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(50))
                        .until(() -> !process.isAlive() || server.srvr().contains("Zookeeper version: " + version));
                if (!process.isAlive()) {
                    throw new IllegalStateException("ZooKeeper " + version + " exited at start: "
                            + Files.readString(dir.resolve("server.log")));
                }
            } catch (RuntimeException e) {
                server.close();
                throw e;
            }
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("could not start ZooKeeper " + version, e);
        }
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

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 0, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    public String version() {
        return version;
    }

    public int port() {
        return port;
    }

    /** The server's {@code dataDir}. */
    public Path dataDir() {
        return dir.resolve("data");
    }

    /** The server's answer to {@code srvr}, empty if it does not answer (yet). */
    public String srvr() {
        return srvr("127.0.0.1:" + port);
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

    /** What the server logged at WARN and above (its log4j configuration). */
    public String log() {
        try {
            return Files.readString(dir.resolve("server.log"));
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        TestZooKeeper.deleteRecursively(dir);
    }
}
