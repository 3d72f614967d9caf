package io.zkgroups.registry.server;

import io.zkgroups.testing.TestZooKeeper;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code srvr} against a real server, and against one that takes the connection and says nothing. */
class ServerProbeIT {

    @Test
    void aServerNamesItsVersion() throws Exception {
        try (TestZooKeeper zk = TestZooKeeper.start()) {
            String connect = zk.connectString();
            InetSocketAddress server = new InetSocketAddress("127.0.0.1",
                    Integer.parseInt(connect.substring(connect.lastIndexOf(':') + 1)));

            ServerProbe.SrvrAnswer answer = ServerProbe.srvr(server, 5_000);

            assertThat(answer.silent()).isFalse();
            assertThat(answer.version()).hasValueSatisfying(v -> assertThat(v).startsWith("3.9."));
        }
    }

    @Test
    void aServerThatSaysNothingInTimeIsSilentNotOld() throws Exception {
        try (ServerSocket mute = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ServerProbe.SrvrAnswer answer = ServerProbe.srvr(
                    new InetSocketAddress("127.0.0.1", mute.getLocalPort()), 200); // accepted by the backlog, never read

            assertThat(answer.silent()).isTrue();
            assertThat(answer.version()).isEmpty();
        }
    }
}
