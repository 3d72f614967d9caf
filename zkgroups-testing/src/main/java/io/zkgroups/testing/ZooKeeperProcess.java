package io.zkgroups.testing;

import org.apache.curator.test.InstanceSpec;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real ZooKeeper server in a child JVM ({@link ZooKeeperServerChild}), for the settings a server only takes
 * through System properties: TLS on a secure client port, SASL with a JAAS file. It listens on 127.0.0.1 only,
 * on a plaintext port and, when {@link #withTls} was asked, a TLS port as well.
 */
public final class ZooKeeperProcess implements AutoCloseable {

    private final Process process;
    private final Path dir;
    private final int clientPort;
    private final int secureClientPort;

    private ZooKeeperProcess(Process process, Path dir, int clientPort, int secureClientPort) {
        this.process = process;
        this.dir = dir;
        this.clientPort = clientPort;
        this.secureClientPort = secureClientPort;
    }

    /** Server settings: zoo.cfg properties plus the child JVM's options. */
    public static final class Settings {
        private final Properties config = new Properties();
        private final List<String> jvmOptions = new ArrayList<>();
        private boolean tls;

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

        public Settings with(String key, String value) {
            config.setProperty(key, value);
            return this;
        }
    }

    public static Settings settings() {
        return new Settings();
    }

    /** Starts the server and waits until it serves (at most 60 s). */
    public static ZooKeeperProcess start(Settings settings) {
        try {
            Path dir = Files.createTempDirectory("zkgroups-zkproc-");
            int clientPort = InstanceSpec.getRandomPort();
            int securePort = settings.tls ? InstanceSpec.getRandomPort() : -1;
            Properties config = new Properties();
            config.putAll(settings.config);
            config.setProperty("tickTime", "200");
            config.setProperty("clientPort", Integer.toString(clientPort));
            config.setProperty("clientPortAddress", "127.0.0.1");
            config.setProperty("admin.enableServer", "false");
            if (settings.tls) {
                config.setProperty("secureClientPort", Integer.toString(securePort));
                config.setProperty("secureClientPortAddress", "127.0.0.1");
            }
            Path configFile = dir.resolve("zoo.properties");
            try (OutputStream out = Files.newOutputStream(configFile)) {
                config.store(out, null);
            }
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx96m", "-XX:+UseSerialGC"));
            command.addAll(settings.jvmOptions);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), ZooKeeperServerChild.class.getName(),
                    configFile.toString(), dir.resolve("server").toString()));
            Process process = new ProcessBuilder(command).redirectError(dir.resolve("server.log").toFile()).start();
            ZooKeeperProcess server = new ZooKeeperProcess(process, dir, clientPort, securePort);
            ChildOutput out = ChildOutput.start(process, "zookeeper-child-stdout");
            try {
                out.requireLine(0, "READY"::equals, Duration.ofSeconds(60), "READY from the ZooKeeper child",
                        message -> new AssertionError(message + "; its log: " + server.log()));
            } catch (RuntimeException | Error e) {
                server.close();
                throw e;
            }
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a ZooKeeper child process", e);
        }
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

    /** The server's log (its stderr), for failure messages. */
    public String log() {
        try {
            return Files.readString(dir.resolve("server.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** The child's temp directory, for files a test wants next to the server's. */
    public Path dir() {
        return dir;
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort: a temp dir left behind is not a test failure
        }
    }

    @Override
    public String toString() {
        return "ZooKeeper child pid " + process.pid() + " on " + connectString()
                + (secureClientPort < 0 ? "" : " and TLS " + secureConnectString());
    }
}
