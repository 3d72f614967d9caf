package io.zkgroups.chaos.cluster;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A TCP forwarder on 127.0.0.1 in front of one server port, through which one client (a member, a ZooKeeper
 * peer) reaches it, so that a fault can disturb exactly that link:
 * <ul>
 *   <li>{@link #delay(long)}: every chunk read is forwarded no earlier than {@code millis} after it was read
 *       (one chunk at a time per direction, so pipelined traffic is slowed further: fine for request/response
 *       protocols at the rates used here);</li>
 *   <li>{@link #stall()}: bytes stop flowing both ways, connections stay open (a black hole: the peers only
 *       notice through their own timeouts);</li>
 *   <li>{@link #cut()}: every connection is closed and new ones are closed on accept (a partition that the
 *       peers notice at once);</li>
 *   <li>{@link #heal()}: back to plain forwarding; stalled bytes flow on.</li>
 * </ul>
 * Two threads per connection; everything is a daemon thread.
 */
public final class TcpProxy implements Closeable {

    private static final int CHUNK = 64 * 1024;
    private static final long CONNECT_PATIENCE_MS = 3_000;
    private static final long CONNECT_RETRY_MS = 50;

    private enum Mode { PASS, STALL, CUT }

    private final String name;
    private final InetSocketAddress target;
    private final ServerSocket server;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private Mode mode = Mode.PASS;
    private long delayNanos;
    private volatile boolean closed;

    /** Listens on {@code 127.0.0.1:listenPort} (0: any free port) and forwards to {@code 127.0.0.1:targetPort}. */
    public TcpProxy(String name, int listenPort, int targetPort) {
        this.name = name;
        this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
        try {
            this.server = new ServerSocket();
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), listenPort), 50);
        } catch (IOException e) {
            throw new UncheckedIOException("proxy " + name + ": cannot listen on 127.0.0.1:" + listenPort, e);
        }
        Thread acceptor = new Thread(this::acceptLoop, "proxy-" + name);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public String name() {
        return name;
    }

    public int port() {
        return server.getLocalPort();
    }

    public void delay(long millis) {
        setMode(Mode.PASS, TimeUnit.MILLISECONDS.toNanos(millis));
    }

    public void stall() {
        setMode(Mode.STALL, 0);
    }

    public void cut() {
        setMode(Mode.CUT, 0);
        closeConnections();
    }

    public void heal() {
        setMode(Mode.PASS, 0);
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
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            if (currentMode() == Mode.CUT) {
                closeQuietly(client);
                continue;
            }
            Thread connector = new Thread(() -> connect(client), "proxy-" + name + "-connect");
            connector.setDaemon(true);
            connector.start();
        }
    }

    /**
     * Connects the accepted client to the target. The client's connect has already succeeded (the proxy listens), so
     * a target that is not listening yet is tried again for a while instead of dropping the client at once: a new
     * ZooKeeper leader opens its quorum port a few ms after it is elected, and a follower that finds its connection
     * closed right after connecting gives up following instead of retrying (elections then took 10-40 s).
     */
    private void connect(Socket client) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CONNECT_PATIENCE_MS);
        while (!closed && currentMode() != Mode.CUT) {
            Socket upstream = new Socket();
            try {
                upstream.connect(target, 1_000);
                sockets.add(client);
                sockets.add(upstream);
                start(client, upstream, "up");
                start(upstream, client, "down");
                return;
            } catch (IOException e) {
                closeQuietly(upstream);
                if (System.nanoTime() > deadline) {
                    break; // the server is down: the client sees its connection closed
                }
                awaitRetry();
            }
        }
        closeQuietly(client);
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

    private void start(Socket from, Socket to, String direction) {
        Thread t = new Thread(() -> pump(from, to), "proxy-" + name + "-" + direction);
        t.setDaemon(true);
        t.start();
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[CHUNK];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (!awaitForwarding(System.nanoTime())) {
                    break;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // reset, or closed by cut()/close(): the other direction is closed below
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            sockets.remove(from);
            sockets.remove(to);
        }
    }

    /** Holds a chunk read at {@code readAt} while stalled or until its delay has passed; false once cut. */
    private boolean awaitForwarding(long readAt) {
        lock.lock();
        try {
            while (true) {
                if (mode == Mode.CUT || closed) {
                    return false;
                }
                long wait = mode == Mode.STALL ? TimeUnit.SECONDS.toNanos(1) : readAt + delayNanos - System.nanoTime();
                if (mode == Mode.PASS && wait <= 0) {
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

    private Mode currentMode() {
        lock.lock();
        try {
            return mode;
        } finally {
            lock.unlock();
        }
    }

    private void closeConnections() {
        for (Socket s : sockets) {
            closeQuietly(s);
        }
        sockets.clear();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closed = true;
        setMode(Mode.CUT, 0);
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        closeConnections();
    }

    @Override
    public String toString() {
        return "proxy " + name + " 127.0.0.1:" + port() + " -> " + target.getPort();
    }
}
