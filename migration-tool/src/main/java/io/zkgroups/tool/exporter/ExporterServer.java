package io.zkgroups.tool.exporter;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.lag.GroupSampler;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

/** The HTTP side of {@code zkgroups exporter}: one {@link LagExporter} behind Prometheus' HTTP server. */
public final class ExporterServer implements AutoCloseable {

    /** What to serve, where. An empty {@code groups} means every group under {@code /consumers}, at every read. */
    public record Settings(String bind, int port, List<String> groups, int samples, Duration minInterval,
                           Duration idleAfter, Duration staleAfter) {
    }

    private final HTTPServer http;
    private final String bind;
    private final LagExporter exporter;
    private final CountDownLatch never = new CountDownLatch(1);

    private ExporterServer(HTTPServer http, String bind, LagExporter exporter) {
        this.http = http;
        this.bind = bind;
        this.exporter = exporter;
    }

    /** Reads the groups once (so a broken setup fails here, not at the first scrape), then listens. */
    public static ExporterServer start(Clients clients, Settings settings) {
        GroupSampler sampler = new GroupSampler(clients, settings.staleAfter());
        Supplier<List<String>> groups = settings.groups().isEmpty() ? sampler::allGroups : () -> settings.groups();
        io.zkgroups.registry.ZkLayout layout = clients.zk().paths();
        io.zkgroups.registry.store.Znodes znodes = clients.zk().registry().znodes();
        LagExporter exporter = new LagExporter(sampler, groups, settings.samples(), settings.minInterval(), settings.idleAfter(),
                names -> {
                    java.util.Map<String, String> paths = new java.util.TreeMap<>();
                    names.forEach(g -> paths.put(layout.audit(g), g));
                    java.util.Map<String, List<String>> byGroup = new java.util.TreeMap<>();
                    znodes.childrenAll(paths.keySet()).forEach((path, children) -> byGroup.put(paths.get(path), children));
                    return byGroup;
                });
        exporter.refresh();
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(exporter);
        try {
            HTTPServer http = HTTPServer.builder().hostname(settings.bind()).port(settings.port()).registry(registry)
                    .buildAndStart();
            return new ExporterServer(http, settings.bind(), exporter);
        } catch (IOException e) {
            throw new CliException(ExitCode.UNREACHABLE, "cannot listen on " + settings.bind() + ":" + settings.port() + ": "
                    + e.getMessage(), e);
        }
    }

    /** {@code host:port} it listens on. */
    public String address() {
        return (bind.contains(":") ? "[" + bind + "]" : bind) + ":" + http.getPort();
    }

    public int port() {
        return http.getPort();
    }

    /** Blocks until the thread is interrupted (Ctrl-C ends the JVM, a caller in the same JVM interrupts). */
    public void awaitInterrupt() {
        try {
            never.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    int reads() {
        return exporter.reads();
    }

    @Override
    public void close() {
        http.close();
    }
}
