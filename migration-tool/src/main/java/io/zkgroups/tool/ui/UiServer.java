package io.zkgroups.tool.ui;

import com.sun.net.httpserver.BasicAuthenticator;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.lag.GroupSampler;
import io.zkgroups.tool.output.Json;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * {@code zkgroups ui}: a read-only live page on the JDK's HTTP server. It serves its assets from the jar (no CDN),
 * JSON documents of the groups ({@code /api/groups}, {@code /api/group?group=G}) and a server-sent event stream of one
 * group ({@code /events?group=G}), and nothing else: only GET and HEAD are answered, the one input (a group id) is
 * checked against ZooKeeper's naming rules and only ever looked up, and every response forbids framing and scripts
 * from elsewhere. Starts behind the guard of {@link UiSettings#refusal()}; with a basic-auth credential every request
 * without it gets 401 and an empty body.
 */
public final class UiServer implements AutoCloseable {

    private static final String UPLOT = "/META-INF/resources/webjars/uplot/1.6.30/dist/";
    private static final Map<String, String[]> ASSETS = Map.of(
            "/", new String[]{"/io/zkgroups/tool/ui/index.html", "text/html; charset=utf-8"},
            "/assets/app.js", new String[]{"/io/zkgroups/tool/ui/app.js", "text/javascript; charset=utf-8"},
            "/assets/app.css", new String[]{"/io/zkgroups/tool/ui/app.css", "text/css; charset=utf-8"},
            "/assets/uPlot.iife.min.js", new String[]{UPLOT + "uPlot.iife.min.js", "text/javascript; charset=utf-8"},
            "/assets/uPlot.min.css", new String[]{UPLOT + "uPlot.min.css", "text/css; charset=utf-8"});
    /** Compact JSON: an event's data is one line. */
    private static final com.fasterxml.jackson.databind.ObjectWriter JSON = Json.mapper().writer()
            .without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT);
    /** Event streams open at once; more get 503 (each holds a thread). */
    private static final int MAX_STREAMS = 32;

    private final HttpServer http;
    private final UiState state;
    private final ExecutorService threads;
    private final Semaphore streams = new Semaphore(MAX_STREAMS);
    private final boolean tls;
    private volatile boolean closed;

    private UiServer(HttpServer http, UiState state, ExecutorService threads, boolean tls) {
        this.http = http;
        this.state = state;
        this.threads = threads;
        this.tls = tls;
    }

    /** Checks the guard, reads the groups once, then listens. */
    public static UiServer start(Clients clients, UiSettings settings, Duration staleAfter) {
        settings.refusal().ifPresent(why -> {
            throw new CliException(ExitCode.USAGE, why);
        });
        HttpServer http = bind(settings);
        GroupSampler all = new GroupSampler(clients, staleAfter);
        Supplier<List<String>> groups = settings.groups().isEmpty() ? all::allGroups : settings::groups;
        UiState state = new UiState(clients, groups, staleAfter);
        ExecutorService threads = Executors.newFixedThreadPool(MAX_STREAMS + 8, r -> {
            Thread t = new Thread(r, "zkgroups-ui-http");
            t.setDaemon(true);
            return t;
        });
        UiServer server = new UiServer(http, state, threads, settings.tls());
        try {
            state.start(settings.interval());
        } catch (RuntimeException e) {
            state.close();
            throw e;
        }
        BasicAuthenticator auth = settings.basicAuth() == null ? null : authenticator(settings.basicAuth());
        server.context("/", server::asset, auth);
        server.context("/api/groups", ex -> server.json(ex, state.groups()), auth);
        server.context("/api/group", ex -> {
            Map<String, Object> doc = server.groupOf(ex);
            if (doc != null) {
                server.json(ex, doc);
            }
        }, auth);
        server.context("/events", server::events, auth);
        http.setExecutor(threads);
        http.start();
        return server;
    }

    private static HttpServer bind(UiSettings s) {
        InetSocketAddress address = new InetSocketAddress(s.bind(), s.port());
        try {
            if (!s.tls()) {
                return HttpServer.create(address, 0);
            }
            HttpsServer https = HttpsServer.create(address, 0);
            SSLContext ssl = SSLContext.getInstance("TLS");
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(load(s.keystore(), s.keystorePassword(), "--tls-keystore"), s.keystorePassword());
            TrustManagerFactory tmf = null;
            if (s.clientTruststore() != null) {
                tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(load(s.clientTruststore(), s.clientTruststorePassword(), "--tls-client-truststore"));
            }
            ssl.init(kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
            boolean clientCerts = s.clientTruststore() != null;
            https.setHttpsConfigurator(new HttpsConfigurator(ssl) {
                @Override
                public void configure(HttpsParameters params) {
                    SSLParameters p = ssl.getDefaultSSLParameters();
                    p.setNeedClientAuth(clientCerts);
                    params.setSSLParameters(p);
                }
            });
            return https;
        } catch (IOException e) {
            throw new CliException(ExitCode.UNREACHABLE, "cannot listen on " + s.bind() + ":" + s.port() + ": " + e.getMessage(), e);
        } catch (java.security.GeneralSecurityException e) {
            throw new CliException(ExitCode.BAD_INPUT_FILE, "cannot set up TLS from --tls-keystore " + s.keystore() + ": "
                    + e.getMessage(), e);
        }
    }

    private static KeyStore load(java.nio.file.Path file, char[] password, String option) throws java.security.GeneralSecurityException {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, password);
            return ks;
        } catch (IOException e) {
            throw new CliException(ExitCode.BAD_INPUT_FILE, "cannot read " + option + " " + file + ": " + e.getMessage(), e);
        }
    }

    private static BasicAuthenticator authenticator(String userAndPassword) {
        int colon = userAndPassword.indexOf(':');
        byte[] user = userAndPassword.substring(0, colon).getBytes(StandardCharsets.UTF_8);
        byte[] password = userAndPassword.substring(colon + 1).getBytes(StandardCharsets.UTF_8);
        return new BasicAuthenticator("zkgroups") {
            @Override
            public boolean checkCredentials(String u, String p) {
                return MessageDigest.isEqual(user, u.getBytes(StandardCharsets.UTF_8))
                        & MessageDigest.isEqual(password, p.getBytes(StandardCharsets.UTF_8));
            }
        };
    }

    private void context(String path, HttpHandler handler, BasicAuthenticator auth) {
        HttpContext c = http.createContext(path, ex -> {
            try (ex) {
                if (!ex.getRequestMethod().equals("GET") && !ex.getRequestMethod().equals("HEAD")) {
                    ex.getResponseHeaders().set("Allow", "GET, HEAD");
                    send(ex, 405, "text/plain; charset=utf-8", "read-only: GET and HEAD only\n".getBytes(StandardCharsets.UTF_8));
                    return;
                }
                handler.handle(ex);
            } catch (IOException e) {
                // the client went away
            } catch (RuntimeException e) {
                send(ex, 500, "text/plain; charset=utf-8", ("error: " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
            }
        });
        if (auth != null) {
            c.setAuthenticator(auth);
        }
    }

    private void asset(HttpExchange ex) throws IOException {
        String[] asset = ASSETS.get(ex.getRequestURI().getPath());
        if (asset == null) {
            send(ex, 404, "text/plain; charset=utf-8", "not found\n".getBytes(StandardCharsets.UTF_8));
            return;
        }
        try (InputStream in = UiServer.class.getResourceAsStream(asset[0])) {
            if (in == null) {
                throw new IllegalStateException("asset " + asset[0] + " is missing from the jar");
            }
            send(ex, 200, asset[1], in.readAllBytes());
        }
    }

    private Map<String, Object> groupOf(HttpExchange ex) throws IOException {
        String group = query(ex, "group");
        Map<String, Object> doc;
        try {
            doc = state.group(group);
        } catch (Exception e) {
            send(ex, 503, "text/plain; charset=utf-8", ("cannot read group: " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
            return null;
        }
        if (doc == null) {
            send(ex, 404, "text/plain; charset=utf-8", "no such group: give ?group= a group the page lists\n"
                    .getBytes(StandardCharsets.UTF_8));
        }
        return doc;
    }

    private void json(HttpExchange ex, Object doc) throws IOException {
        send(ex, 200, "application/json", JSON.writeValueAsBytes(doc));
    }

    /** Server-sent events: the group's document now and after every read, until the client or the server goes. */
    private void events(HttpExchange ex) throws IOException {
        if (!streams.tryAcquire()) {
            send(ex, 503, "text/plain; charset=utf-8", "too many open event streams\n".getBytes(StandardCharsets.UTF_8));
            return;
        }
        try {
            Map<String, Object> first = groupOf(ex);
            if (first == null) {
                return;
            }
            String group = (String) first.get("group");
            headers(ex, "text/event-stream; charset=utf-8");
            ex.getResponseHeaders().set("Cache-Control", "no-store");
            ex.sendResponseHeaders(200, 0);
            Semaphore updated = new Semaphore(0);
            Runnable listener = updated::release;
            state.onUpdate(listener);
            try (OutputStream out = ex.getResponseBody()) {
                Map<String, Object> doc = first;
                while (!closed) {
                    out.write(("event: group\ndata: " + JSON.writeValueAsString(doc) + "\n\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    if (!updated.tryAcquire(30, TimeUnit.SECONDS)) {
                        out.write(": keep-alive\n\n".getBytes(StandardCharsets.UTF_8));
                        out.flush();
                        continue;
                    }
                    updated.drainPermits();
                    doc = state.group(group);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                // the page was closed
            } catch (Exception e) {
                // the group could not be read: the stream ends, the page reconnects
            } finally {
                state.removeListener(listener);
            }
        } finally {
            streams.release();
        }
    }

    private static String query(HttpExchange ex, String name) {
        String raw = ex.getRequestURI().getRawQuery();
        if (raw == null) {
            return null;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name)) {
                return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private void headers(HttpExchange ex, String type) {
        var h = ex.getResponseHeaders();
        h.set("Content-Type", type);
        h.set("X-Content-Type-Options", "nosniff");
        h.set("X-Frame-Options", "DENY");
        h.set("Referrer-Policy", "no-referrer");
        h.set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; "
                + "form-action 'none'; base-uri 'none'");
        if (tls) {
            h.set("Strict-Transport-Security", "max-age=31536000");
        }
    }

    private void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        headers(ex, type);
        boolean head = ex.getRequestMethod().equals("HEAD");
        ex.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** {@code scheme://host:port} it listens on. */
    public String address() {
        InetSocketAddress a = http.getAddress();
        String host = a.getAddress().getHostAddress();
        return (tls ? "https://" : "http://") + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    public int port() {
        return http.getAddress().getPort();
    }

    /** Blocks until the thread is interrupted. */
    public void awaitInterrupt() {
        try {
            new java.util.concurrent.CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        http.stop(0);
        state.close();
        threads.shutdownNow();
    }
}
