package io.zkgroups.testing;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link TcpProxy} between real loopback sockets. */
@Timeout(30)
class TcpProxyTest {

    /** How long a test listens for bytes that must not come. */
    private static final int SILENCE_MS = 300;

    private ServerSocket target;
    private final BlockingQueue<Socket> accepted = new LinkedBlockingQueue<>();
    private TcpProxy proxy;

    @BeforeEach
    void startTarget() throws IOException {
        target = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    accepted.add(target.accept());
                }
            } catch (IOException closed) {
                // the test is over
            }
        }, "tcp-proxy-test-target");
        acceptor.setDaemon(true);
        acceptor.start();
        proxy = TcpProxy.start(new InetSocketAddress("127.0.0.1", target.getLocalPort()));
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        target.close();
        for (Socket socket : accepted) {
            socket.close();
        }
    }

    @Test
    void forwardsBothWays() throws Exception {
        try (Socket client = connect()) {
            Socket server = nextAccepted();
            send(client, "ping");
            assertThat(read(server, 4)).isEqualTo("ping");
            send(server, "pong");
            assertThat(read(client, 4)).isEqualTo("pong");
        }
    }

    @Test
    void aBlackholeHoldsBytesAndClosesInBothDirectionsUntilTheHeal() throws Exception {
        Socket client = connect();
        Socket server = nextAccepted();
        proxy.blackhole();
        send(client, "up");
        send(server, "down");
        assertSilent(server);
        assertSilent(client);
        client.close();
        assertSilent(server); // no end of stream either: the server cannot tell the client went away

        proxy.heal();
        assertThat(read(server, 2)).isEqualTo("up");
        server.setSoTimeout(10_000);
        assertThat(server.getInputStream().read()).as("the client's close, after its bytes").isEqualTo(-1);
    }

    @Test
    void aConnectionOpenedDuringABlackholeReachesTheTargetOnlyAfterTheHeal() throws Exception {
        proxy.blackhole();
        try (Socket client = connect()) {
            send(client, "hello");
            assertThat(accepted.poll(SILENCE_MS, TimeUnit.MILLISECONDS)).as("a connection during the black hole").isNull();

            proxy.heal();
            Socket server = nextAccepted();
            assertThat(read(server, 5)).isEqualTo("hello");
        }
    }

    @Test
    void aCutClosesOpenConnectionsAndNewOnesUntilTheHeal() throws Exception {
        Socket client = connect();
        Socket server = nextAccepted();
        proxy.cut();
        client.setSoTimeout(10_000);
        server.setSoTimeout(10_000);
        assertThat(readOrEnd(client)).as("the client's end of a cut connection").isEqualTo(-1);
        assertThat(readOrEnd(server)).as("the server's end of a cut connection").isEqualTo(-1);
        try (Socket during = connect()) {
            during.setSoTimeout(10_000);
            assertThat(readOrEnd(during)).as("a connection opened during the cut").isEqualTo(-1);
        }
        assertThat(accepted.poll(SILENCE_MS, TimeUnit.MILLISECONDS)).as("a connection during the cut").isNull();

        proxy.heal();
        try (Socket after = connect()) {
            Socket reached = nextAccepted();
            send(after, "back");
            assertThat(read(reached, 4)).isEqualTo("back");
        }
    }

    @Test
    void aDelayHoldsEachChunkThenForwardsIt() throws Exception {
        try (Socket client = connect()) {
            Socket server = nextAccepted();
            proxy.delay(10 * SILENCE_MS);
            assertThat(proxy.mode()).isEqualTo(TcpProxy.Mode.PASS);
            send(client, "slow");
            assertSilent(server);
            assertThat(read(server, 4)).isEqualTo("slow");
        }
    }

    @Test
    void aPreambleReplacesTheFirstMessage() throws Exception {
        proxy.close();
        proxy = TcpProxy.start(new InetSocketAddress("127.0.0.1", target.getLocalPort()), in -> {
            byte[] first = new byte[3];
            in.readFully(first);
            return new String(first, StandardCharsets.US_ASCII).toUpperCase().getBytes(StandardCharsets.US_ASCII);
        });
        try (Socket client = connect()) {
            Socket server = nextAccepted();
            send(client, "abcdef");
            assertThat(read(server, 6)).isEqualTo("ABCdef");
        }
    }

    @Test
    void closingTheProxyClosesItsConnections() throws Exception {
        try (Socket client = connect()) {
            Socket server = nextAccepted();
            proxy.close();
            client.setSoTimeout(10_000);
            server.setSoTimeout(10_000);
            assertThat(readOrEnd(client)).isEqualTo(-1);
            assertThat(readOrEnd(server)).isEqualTo(-1);
            // (whether a new connection to the old port is refused is not asserted: once the port is free, any
            // process on the machine may bind it)
        }
    }

    private Socket connect() throws IOException {
        return new Socket(proxy.address().getAddress(), proxy.port());
    }

    private Socket nextAccepted() throws InterruptedException {
        Socket socket = accepted.poll(10, TimeUnit.SECONDS);
        assertThat(socket).as("a connection at the target").isNotNull();
        return socket;
    }

    private static void send(Socket socket, String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
    }

    private static String read(Socket socket, int length) throws IOException {
        socket.setSoTimeout(10_000);
        byte[] bytes = new byte[length];
        new DataInputStream(socket.getInputStream()).readFully(bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /** Nothing (no byte, no end of stream) arrives within {@link #SILENCE_MS}. */
    private static void assertSilent(Socket socket) throws IOException {
        socket.setSoTimeout(SILENCE_MS);
        InputStream in = socket.getInputStream();
        assertThatThrownBy(in::read).as("something arrived through a silent proxy")
                .isInstanceOf(SocketTimeoutException.class);
    }

    private static int readOrEnd(Socket socket) {
        try {
            return socket.getInputStream().read();
        } catch (IOException reset) {
            return -1;
        }
    }
}
