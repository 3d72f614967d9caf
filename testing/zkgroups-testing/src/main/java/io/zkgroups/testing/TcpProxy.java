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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A TCP forwarder on 127.0.0.1 in front of one server port, for fault tests: every connection to {@link #address()}
 * is forwarded to a target, and a {@link Mode} disturbs all of them at once:
 * <ul>
 *   <li>{@link Mode#PASS}: plain forwarding, optionally {@link #delay(long) delayed};</li>
 *   <li>{@link Mode#BLACKHOLE} ({@link #blackhole()}): a network partition, as behind a pulled cable. Nothing passes in
 *       either direction and nothing is closed, so both ends find out only through their own timeouts. What was sent
 *       meanwhile (bytes, and the end of a stream) waits in the proxy the way TCP keeps retransmitting it, and goes
 *       through in order after the {@link #heal()}. New connections are accepted but reach the target only then;</li>
 *   <li>{@link Mode#CUT} ({@link #cut()}): every connection is closed and new ones are closed on accept, a partition
 *       that both ends notice at once.</li>
 * </ul>
 * <pre>{@code
 * try (TcpProxy proxy = TcpProxy.start(new InetSocketAddress("127.0.0.1", serverPort))) {
 *     connect clients to proxy.address() ... proxy.blackhole(); ... proxy.heal();
 * }
 * }</pre>
 * Two daemon threads per connection.
 */
public final class TcpProxy implements AutoCloseable {

    /** What the proxy does to the traffic through it. */
    public enum Mode {
        /** Forward everything (after the {@link #delay(long) delay}, if one is set). */
        PASS,
        /** Hold everything, close nothing: the ends see silence until the heal. */
        BLACKHOLE,
        /** Close every connection, and new ones on accept. */
        CUT
    }

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
    private static final int CHUNK = 64 * 1024;
    private static final long CONNECT_PATIENCE_MS = 3_000;
    private static final long CONNECT_RETRY_MS = 50;

    private final String name;
    private final InetSocketAddress target;
    private final Preamble preamble;
    private final ServerSocket listener;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private Mode mode = Mode.PASS;
    private long delayNanos;
    private volatile boolean closed;

    private TcpProxy(String name, InetSocketAddress target, Preamble preamble) throws IOException {
        this.target = target;
        this.preamble = preamble;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.name = (name != null ? name : "tcp-proxy-" + PROXIES.incrementAndGet()) + " 127.0.0.1:"
                + listener.getLocalPort() + "->" + target.getPort();
        daemon(this::acceptLoop, this.name).start();
    }

    /** Starts forwarding a free loopback port to {@code target}. */
    public static TcpProxy start(InetSocketAddress target) {
        return start(null, target, null);
    }

    /** As {@link #start(InetSocketAddress)}; {@code preamble} rewrites what each connection sends first. */
    public static TcpProxy start(InetSocketAddress target, Preamble preamble) {
        return start(null, target, preamble);
    }

    /** As {@link #start(InetSocketAddress, Preamble)}, named for thread names and messages; both may be null. */
    public static TcpProxy start(String name, InetSocketAddress target, Preamble preamble) {
        try {
            return new TcpProxy(name, target, preamble);
        } catch (IOException e) {
            throw new UncheckedIOException("proxy " + name + " to " + target + ": cannot listen on 127.0.0.1", e);
        }
    }

    /** Starts forwarding a free loopback port to {@code 127.0.0.1:targetPort}, named for thread names and messages. */
    public static TcpProxy start(String name, int targetPort) {
        return start(name, new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), null);
    }

    /** Where clients connect: {@code 127.0.0.1:port}. */
    public InetSocketAddress address() {
        return new InetSocketAddress(listener.getInetAddress(), listener.getLocalPort());
    }

    public int port() {
        return listener.getLocalPort();
    }

    public Mode mode() {
        lock.lock();
        try {
            return mode;
        } finally {
            lock.unlock();
        }
    }

    /** Switches to {@code newMode} (a {@link Mode#PASS} without delay for a heal); CUT closes every connection. */
    public void mode(Mode newMode) {
        setMode(newMode, 0);
        if (newMode == Mode.CUT) {
            closeConnections();
        }
    }

    /** {@link Mode#BLACKHOLE}: stops everything from passing, in both directions, on open and on new connections. */
    public void blackhole() {
        mode(Mode.BLACKHOLE);
    }

    /** {@link Mode#CUT}: closes every connection now and every new one on accept. */
    public void cut() {
        mode(Mode.CUT);
    }

    /**
     * {@link Mode#PASS}, with every chunk read forwarded no earlier than {@code millis} after it was read (one chunk at
     * a time per direction, so pipelined traffic is slowed further: fine for request/response protocols).
     */
    public void delay(long millis) {
        setMode(Mode.PASS, TimeUnit.MILLISECONDS.toNanos(millis));
    }

    /** {@link Mode#PASS} without delay: what waited during a black hole goes through first. */
    public void heal() {
        mode(Mode.PASS);
    }

    /** Closes the port and every connection through it (both ends see the close). */
    @Override
    public void close() {
        closed = true;
        setMode(Mode.CUT, 0); // wakes the waiting forwarders; they see {@code closed} and stop
        closeQuietly(listener);
        closeConnections();
    }

    @Override
    public String toString() {
        return "proxy " + name;
    }

    private void setMode(Mode newMode, long newDelayNanos) {
        lock.lock();
        try {
            mode = newMode;
            delayNanos = newDelayNanos;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            if (mode() == Mode.CUT) {
                closeQuietly(client);
                continue;
            }
            sockets.add(client);
            daemon(() -> connect(client), name + "-connect").start();
        }
    }

    /**
     * Connects a new client to the target (after the heal if the proxy is a black hole) and starts both forwarders.
     * The client's connect has already succeeded (the proxy listens), so a target that is not listening yet is tried
     * again for a while instead of dropping the client at once: a new ZooKeeper leader opens its quorum port a few ms
     * after it is elected, and a follower that finds its connection closed right after connecting gives up following
     * instead of retrying (elections then took 10-40 s).
     */
    private void connect(Socket client) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CONNECT_PATIENCE_MS);
        while (awaitOpen()) {
            Socket server = new Socket();
            sockets.add(server);
            try {
                server.connect(target, 1_000);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                daemon(() -> forward(client, server, preamble), name + "-up").start();
                daemon(() -> forward(server, client, null), name + "-down").start();
                return;
            } catch (IOException e) {
                closeQuietly(server);
                sockets.remove(server);
                if (System.nanoTime() > deadline) {
                    break; // the target is down: the client sees its connection closed
                }
                awaitRetry();
            }
        }
        closeQuietly(client);
        sockets.remove(client);
    }

    private void awaitRetry() {
        lock.lock();
        try {
            changed.await(CONNECT_RETRY_MS, TimeUnit.MILLISECONDS); // polling a port, like a client's own retry
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    private void forward(Socket from, Socket to, Preamble rewrite) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            if (rewrite != null) {
                byte[] first = rewrite.rewrite(new DataInputStream(in));
                if (!awaitForwarding(System.nanoTime())) {
                    return;
                }
                out.write(first);
                out.flush();
            }
            byte[] buffer = new byte[CHUNK];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (!awaitForwarding(System.nanoTime())) {
                    return;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // a reset or a close on either side ends the connection like an end of stream
        } finally {
            // The close goes through like the bytes before it: not while the proxy is a black hole.
            awaitOpen();
            closeBoth(from, to);
        }
    }

    /** Waits while the proxy is a black hole; false once it is cut or closed. */
    private boolean awaitOpen() {
        return awaitForwarding(Long.MIN_VALUE);
    }

    /**
     * Holds a chunk read at {@code readAt} while the proxy is a black hole or until its delay has passed
     * ({@code Long.MIN_VALUE}: no delay); false once it is cut or closed.
     */
    private boolean awaitForwarding(long readAt) {
        lock.lock();
        try {
            while (true) {
                if (mode == Mode.CUT || closed) {
                    return false;
                }
                if (mode == Mode.BLACKHOLE) {
                    changed.awaitUninterruptibly();
                    continue;
                }
                long wait = readAt == Long.MIN_VALUE ? 0 : readAt + delayNanos - System.nanoTime();
                if (wait <= 0) {
                    return true;
                }
                changed.awaitNanos(wait);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    private void closeConnections() {
        for (Socket socket : List.copyOf(sockets)) {
            closeQuietly(socket);
            sockets.remove(socket);
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
