package io.zkgroups.registry.server;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import org.apache.curator.RetryLoop;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.client.ConnectStringParser;
import org.apache.zookeeper.data.Stat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Learns which {@link ServerGeneration} a client's ensemble is without sending a request any server might not
 * implement (which would cost the client its connection):
 * <ol>
 *   <li>a read of {@code /zookeeper/config} on the client's own session (a plain {@code getData}, outside any chroot):
 *   3.5+ servers always have that znode, 3.4 servers never do;</li>
 *   <li>on 3.5+, the {@code srvr} command on each server of the connect string (a short TCP exchange beside the
 *   session, the one command every server answers by default): its {@code Zookeeper version} line tells 3.5 from
 *   3.6+. The oldest server of the ensemble counts, as the client may reconnect to any of them. A server that does not
 *   answer (down, {@code srvr} not in {@code 4lw.commands.whitelist}, a TLS-only port) may be a 3.5: then only 3.5's
 *   requests are used, and the setting {@code zkgroups.zookeeper.server.version} can say more.</li>
 * </ol>
 */
public final class ServerProbe {

    private static final int SRVR_TIMEOUT_MS = 1_000;
    private static final Pattern SRVR_VERSION = Pattern.compile("Zookeeper version: ([0-9][^ ,\\s]*)");

    /** What was found, and how (for the log and health). */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
    public static final class Finding {
        private final ServerGeneration generation;
        private final String evidence;

        public Finding(ServerGeneration generation, String evidence) {
            this.generation = generation;
            this.evidence = evidence;
        }

        public ServerGeneration generation() {
            return generation;
        }

        public String evidence() {
            return evidence;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Finding)) {
                return false;
            }
            Finding that = (Finding) o;
            return Objects.equals(generation, that.generation)
                    && Objects.equals(evidence, that.evidence);
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Objects.hashCode(generation);
            h = 31 * h + Objects.hashCode(evidence);
            return h;
        }

        @Override
        public String toString() {
            return "Finding[generation=" + generation + ", evidence=" + evidence + "]";
        }
    }

    private ServerProbe() {
    }

    public static Finding probe(CuratorFramework client) throws Exception {
        boolean hasConfigZnode = RetryLoop.callWithRetry(client.getZookeeperClient(), () -> {
            try {
                client.getZookeeperClient().getZooKeeper().getConfig(false, new Stat());
                return true;
            } catch (KeeperException.NoNodeException absent) {
                return false;
            } catch (KeeperException.NoAuthException exists) {
                return true;
            }
        });
        if (!hasConfigZnode) {
            return new Finding(ServerGeneration.V3_4, "the server has no /zookeeper/config (a 3.4 server)");
        }
        List<String> versions = new ArrayList<>();
        List<String> silent = new ArrayList<>();
        ServerGeneration oldest = ServerGeneration.V3_6_OR_LATER;
        for (InetSocketAddress server : servers(client)) {
            Optional<String> version = srvrVersion(server);
            if (!version.isPresent()) {
                silent.add(server.getHostString() + ":" + server.getPort());
                continue;
            }
            versions.add(server.getHostString() + ":" + server.getPort() + " " + version.get());
            ServerGeneration g = generationOf(version.get());
            if (g.compareTo(oldest) < 0) {
                oldest = g;
            }
        }
        if (!silent.isEmpty() && oldest == ServerGeneration.V3_6_OR_LATER) {
            oldest = ServerGeneration.V3_5;
        }
        String evidence = "/zookeeper/config exists (3.5+)"
                + (versions.isEmpty() ? "" : "; srvr: " + String.join(", ", versions))
                + (silent.isEmpty() ? "" : "; no srvr answer from " + String.join(", ", silent)
                + " (counted as 3.5)");
        return new Finding(oldest, evidence);
    }

    private static ServerGeneration generationOf(String version) {
        try {
            return ServerGeneration.ofVersion(version);
        } catch (IllegalArgumentException tooOld) {
            return ServerGeneration.V3_4; // a 3.3 cannot serve zkgroups at all; it answers multi with an error
        }
    }

    private static List<InetSocketAddress> servers(CuratorFramework client) {
        return new ConnectStringParser(client.getZookeeperClient().getCurrentConnectionString()).getServerAddresses();
    }

    /** The version a server's {@code srvr} answer names, empty if it gives none within a second. */
    static Optional<String> srvrVersion(InetSocketAddress server) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(server.getHostString(), server.getPort()), SRVR_TIMEOUT_MS);
            socket.setSoTimeout(SRVR_TIMEOUT_MS);
            socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            Matcher m = SRVR_VERSION.matcher(readAll(socket.getInputStream()));
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        } catch (IOException | RuntimeException unanswered) {
            return Optional.empty();
        }
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[1024];
        for (int n; (n = in.read(buffer)) >= 0 && out.size() < 16_384; ) {
            out.write(buffer, 0, n);
        }
        return new String(out.toByteArray(), StandardCharsets.US_ASCII);
    }
}
