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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * Silence is not an answer. The client's own read has just gone through, so when no server answers {@code srvr} within
 * a second they are more likely busy (a thousand members starting at once) than old: they are asked once more, with
 * {@value #PATIENT_SRVR_TIMEOUT_MS} ms to answer. A finding that still rests on silence is {@link Finding#provisional()}
 * ({@link ServerCapabilities} asks again later), as a member taken for a 3.5 client reads every registration and
 * owner znode one by one with a watch each: at 1,000 members that is a million requests where a 3.6+ client sends a
 * few thousand.
 */
public final class ServerProbe {

    private static final int SRVR_TIMEOUT_MS = 1_000;
    static final int PATIENT_SRVR_TIMEOUT_MS = 5_000;
    private static final Pattern SRVR_VERSION = Pattern.compile("Zookeeper version: ([0-9][^ ,\\s]*)");

    /** What was found, and how (for the log and health). */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY) // JSON output (CLI) shows the fields
    public static final class Finding {
        private final ServerGeneration generation;
        private final String evidence;
        private final boolean provisional;

        public Finding(ServerGeneration generation, String evidence) {
            this(generation, evidence, false);
        }

        /** @param provisional whether it rests on a server that did not answer, which may answer later */
        public Finding(ServerGeneration generation, String evidence, boolean provisional) {
            this.generation = generation;
            this.evidence = evidence;
            this.provisional = provisional;
        }

        /** Whether it rests on a server's silence: then the servers are to be asked again later. */
        public boolean provisional() {
            return provisional;
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
                    && Objects.equals(evidence, that.evidence)
                    && provisional == that.provisional;
        }

        @Override
        public int hashCode() {
            int h = 0;
            h = 31 * h + Objects.hashCode(generation);
            h = 31 * h + Objects.hashCode(evidence);
            h = 31 * h + Boolean.hashCode(provisional);
            return h;
        }

        @Override
        public String toString() {
            return "Finding[generation=" + generation + ", evidence=" + evidence + ", provisional=" + provisional + "]";
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
        List<InetSocketAddress> servers = servers(client);
        Map<InetSocketAddress, SrvrAnswer> answers = new LinkedHashMap<>();
        for (InetSocketAddress server : servers) {
            answers.put(server, srvr(server, SRVR_TIMEOUT_MS));
        }
        if (answers.values().stream().allMatch(SrvrAnswer::silent)) {
            for (InetSocketAddress server : servers) {
                answers.put(server, srvr(server, PATIENT_SRVR_TIMEOUT_MS)); // busy, most likely: ask once more
            }
        }
        return finding(answers);
    }

    /** What the {@code srvr} answers of a 3.5+ ensemble's servers add up to. */
    static Finding finding(Map<InetSocketAddress, SrvrAnswer> answers) {
        List<String> versions = new ArrayList<>();
        List<String> unversioned = new ArrayList<>();
        List<String> silent = new ArrayList<>();
        ServerGeneration oldest = ServerGeneration.V3_6_OR_LATER;
        for (Map.Entry<InetSocketAddress, SrvrAnswer> entry : answers.entrySet()) {
            String server = entry.getKey().getHostString() + ":" + entry.getKey().getPort();
            SrvrAnswer answer = entry.getValue();
            if (answer.silent()) {
                silent.add(server);
            } else if (!answer.version().isPresent()) {
                unversioned.add(server);
            } else {
                versions.add(server + " " + answer.version().get());
                ServerGeneration g = generationOf(answer.version().get());
                if (g.compareTo(oldest) < 0) {
                    oldest = g;
                }
            }
        }
        ServerGeneration answered = oldest;
        boolean unknown = !silent.isEmpty() || !unversioned.isEmpty();
        if (unknown && oldest == ServerGeneration.V3_6_OR_LATER) {
            oldest = ServerGeneration.V3_5;
        }
        String evidence = "/zookeeper/config exists (3.5+)"
                + (versions.isEmpty() ? "" : "; srvr: " + String.join(", ", versions))
                + (unversioned.isEmpty() ? "" : "; srvr answered without a version by " + String.join(", ", unversioned))
                + (silent.isEmpty() ? "" : "; no srvr answer from " + String.join(", ", silent))
                + (unknown && oldest == ServerGeneration.V3_5 ? " (counted as 3.5)" : "");
        // Silence may end; a refusal will not. Only a 3.5 that rests on silence is worth asking about again.
        return new Finding(oldest, evidence, !silent.isEmpty() && unversioned.isEmpty()
                && answered == ServerGeneration.V3_6_OR_LATER);
    }

    /** A server's answer to {@code srvr}: the version it names, if any; silent if it gave none in time. */
    static final class SrvrAnswer {
        private static final SrvrAnswer SILENT = new SrvrAnswer(true, Optional.empty());
        private final boolean silent;
        private final Optional<String> version;

        private SrvrAnswer(boolean silent, Optional<String> version) {
            this.silent = silent;
            this.version = version;
        }

        static SrvrAnswer silence() {
            return SILENT;
        }

        /** An answer; {@code text} without a version line: {@code srvr} is refused (not in the whitelist). */
        static SrvrAnswer of(String text) {
            Matcher m = SRVR_VERSION.matcher(text);
            return new SrvrAnswer(false, m.find() ? Optional.of(m.group(1)) : Optional.empty());
        }

        boolean silent() {
            return silent;
        }

        Optional<String> version() {
            return version;
        }
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

    /** What a server answers to {@code srvr} within {@code timeoutMs} (to connect, then to answer). */
    static SrvrAnswer srvr(InetSocketAddress server, int timeoutMs) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(server.getHostString(), server.getPort()), timeoutMs);
            socket.setSoTimeout(timeoutMs);
            socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String text = readAll(socket.getInputStream());
            return text.isEmpty() ? SrvrAnswer.silence() : SrvrAnswer.of(text);
        } catch (IOException | RuntimeException unanswered) {
            return SrvrAnswer.silence();
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
