package io.zkgroups.testing;

import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The main class of a {@link ChildZooKeeperServer}: a real ZooKeeper server with the given zoo.cfg properties in its
 * own JVM. ZooKeeper's server reads TLS and SASL settings from System properties (and sets some itself while
 * parsing its configuration), so such a server runs here, where that global state touches nothing else.
 * Prints {@code READY} once it serves, and stops when its stdin closes.
 * <p>
 * Arguments: the configuration properties file, the data directory.
 */
public final class ZooKeeperServerChild {

    private ZooKeeperServerChild() {
    }

    public static void main(String[] args) throws Exception {
        Properties config = new Properties();
        try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
            config.load(in);
        }
        Path baseDir = Files.createDirectories(Path.of(args[1]));
        try (ZooKeeperServerEmbedded server = ZooKeeperServerEmbedded.builder()
                .baseDir(baseDir)
                .configuration(config)
                .exitHandler(ExitHandler.LOG_ONLY)
                .build()) {
            server.start(60_000);
            System.out.println("READY");
            System.out.flush();
            awaitEndOfInput();
        }
        System.exit(0); // ZooKeeper's non-daemon threads would keep the JVM alive
    }

    private static void awaitEndOfInput() throws IOException {
        InputStream stdin = StandardInput.closedAtExit();
        try {
            while (stdin.read() != -1) {
                // the parent closes our stdin to stop us (or dies)
            }
        } catch (java.nio.channels.AsynchronousCloseException exiting) {
            // the JVM exits (SIGTERM): its hooks closed stdin
        }
    }
}
