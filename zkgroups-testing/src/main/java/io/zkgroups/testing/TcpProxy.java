package io.zkgroups.testing;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A TCP forwarder on 127.0.0.1 for fault tests: every connection to {@link #address()} is forwarded to a target,
 * until the proxy is {@link #cut()}. A cut behaves like a network partition: from then on nothing passes in
 * either direction, and nothing is closed either, so both ends find out only through their own timeouts, as they
 * would behind a pulled cable. What was sent meanwhile (bytes, and the end of a stream) waits in the proxy the way
 * TCP keeps retransmitting it, and goes through in order once the proxy is {@link #heal() healed}. New connections
 * are accepted during a cut but reach the target only after the heal.
 * <pre>{@code
 * try (TcpProxy proxy = TcpProxy.start(new InetSocketAddress("127.0.0.1", serverPort))) {
 *     connect clients to proxy.address() ... proxy.cut(); ... proxy.heal();
 * }
 * }</pre>
 */
public final class TcpProxy implements AutoCloseable {

    /**
     * Reads what a new connection sends first and returns the bytes to send to the target in its place; for
     * protocols whose handshake carries an address that must point back through a proxy. After it the bytes are
     * forwarded as they come. It reads from the raw socket stream: it must read exactly its message, no more.
     */
    @FunctionalInterface
    public interface Preamble {
        byte[] rewrite(DataInputStream fromClient) throws IOException;
    }

    private static final AtomicInteger PROXIES = new AtomicInteger();

    private final InetSocketAddress target;
    private final Preamble preamble;
    private final ServerSocket listener;
    private final String name;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition healed = lock.newCondition();
    private boolean cut;
    private volatile boolean closed;

    private TcpProxy(InetSocketAddress target, Preamble preamble) throws IOException {
        this.target = target;
        this.preamble = preamble;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.name = "tcp-proxy-" + PROXIES.incrementAndGet() + "-" + listener.getLocalPort() + "->" + target.getPort();
        daemon(this::acceptLoop, name).start();
    }

    /** Starts forwarding a free loopback port to {@code target}. */
    public static TcpProxy start(InetSocketAddress target) {
        return start(target, null);
    }

    /** As {@link #start(InetSocketAddress)}; {@code preamble} rewrites what each connection sends first. */
    public static TcpProxy start(InetSocketAddress target, Preamble preamble) {
        try {
            return new TcpProxy(target, preamble);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start a proxy to " + target, e);
        }
    }

    /** Where clients connect: {@code 127.0.0.1:port}. */
    public InetSocketAddress address() {
        return new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort());
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Stops everything from passing, in both directions, on open and on new connections. */
    public void cut() {
        lock.lock();
        try {
            cut = true;
        } finally {
            lock.unlock();
        }
    }

    /** Lets everything through again, what waited during the cut first. */
    public void heal() {
        lock.lock();
        try {
            cut = false;
            healed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public boolean isCut() {
        lock.lock();
        try {
            return cut;
        } finally {
            lock.unlock();
        }
    }

    /** Closes the port and every connection through it (both ends see the close). */
    @Override
    public void close() {
        closed = true;
        heal(); // wakes the waiting forwarders; they see {@code closed} and stop
        closeQuietly(listener);
        for (Socket socket : List.copyOf(sockets)) {
            closeQuietly(socket);
        }
    }

    @Override
    public String toString() {
        return name;
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            sockets.add(client);
            daemon(() -> connect(client), name + "-connect").start();
        }
    }

    /** Connects a new client to the target (after the heal if the proxy is cut) and starts both forwarders. */
    private void connect(Socket client) {
        Socket server = new Socket();
        sockets.add(server);
        try {
            if (!awaitOpen()) {
                closeBoth(client, server);
                return;
            }
            server.connect(target, 5_000);
            client.setTcpNoDelay(true);
            server.setTcpNoDelay(true);
        } catch (IOException e) {
            closeBoth(client, server); // the target is down: the client sees its connection closed
            return;
        }
        daemon(() -> forward(client, server, preamble), name + "-up").start();
        daemon(() -> forward(server, client, null), name + "-down").start();
    }

    private void forward(Socket from, Socket to, Preamble rewrite) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            if (rewrite != null) {
                byte[] first = rewrite.rewrite(new DataInputStream(in));
                if (!awaitOpen()) {
                    return;
                }
                out.write(first);
                out.flush();
            }
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (!awaitOpen()) {
                    return;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // a reset or a close on either side ends the connection like an end of stream
        } finally {
            // The close goes through like the bytes before it: only once the proxy is not cut.
            awaitOpen();
            closeBoth(from, to);
        }
    }

    /** Waits while the proxy is cut; false once it is closed. */
    private boolean awaitOpen() {
        lock.lock();
        try {
            while (cut && !closed) {
                healed.awaitUninterruptibly();
            }
            return !closed;
        } finally {
            lock.unlock();
        }
    }

    private void closeBoth(Socket a, Socket b) {
        closeQuietly(a);
        closeQuietly(b);
        sockets.remove(a);
        sockets.remove(b);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // already closed
        }
    }

    private static Thread daemon(Runnable task, String name) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }
}
