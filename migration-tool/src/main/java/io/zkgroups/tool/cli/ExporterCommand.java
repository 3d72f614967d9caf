package io.zkgroups.tool.cli;

import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.exporter.ExporterServer;
import io.zkgroups.tool.io.Clients;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.List;

/** {@code zkgroups exporter}: groups' lag, status, owners and phase in Prometheus text format over HTTP. */
@Command(name = "exporter", sortOptions = false, description = {
        "Serve /metrics in Prometheus text format: per group, topic and partition the lag, the offsets of each store, "
                + "the status (as zkgroups lag judges it, over the last --samples scrapes), the owner; per group the "
                + "members, the migration phase and, in dual commit, how far the stores diverge (docs/monitoring.md).",
        "A scrape reads ZooKeeper (one pipelined pass) and Kafka (one batched round) at most once per --min-interval; "
                + "scrapes in between are served from the last read. Binds to 127.0.0.1 unless --bind says otherwise. "
                + "Runs until interrupted."})
final class ExporterCommand extends AbstractCommand {

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "9308", description = "TCP port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    int port;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for every interface).")
    String bind;

    @Option(names = "--group", paramLabel = "G", description = "A group (repeatable; default: every group under /consumers).")
    List<String> groups;

    @Option(names = "--min-interval", paramLabel = "DURATION", defaultValue = "10s", converter = DurationParser.class,
            description = "Scrapes closer than this share one read (default: ${DEFAULT-VALUE}).")
    Duration minInterval;

    @Option(names = "--samples", paramLabel = "N", defaultValue = "10",
            description = "Reads the statuses are judged over (default: ${DEFAULT-VALUE}, Burrow's window).")
    int samples;

    @Option(names = "--idle-after", paramLabel = "DURATION", defaultValue = "2m", converter = DurationParser.class,
            description = "An offset with backlog unchanged for longer than this is STALL or STOP (default: ${DEFAULT-VALUE}).")
    Duration idleAfter;

    @Option(names = "--stale-after", paramLabel = "DURATION", defaultValue = "5m", converter = DurationParser.class,
            description = "Phase inference: a ZooKeeper offset older than this is stale (default: ${DEFAULT-VALUE}).")
    Duration staleAfter;

    @Override
    ExitCode run(Clients clients) {
        if (samples < 1 || port < 0 || port > 65535 || minInterval.isNegative()) {
            throw new CliException(ExitCode.USAGE, "--samples must be at least 1, --port within 0..65535, "
                    + "--min-interval not negative");
        }
        ExporterServer.Settings settings = new ExporterServer.Settings(bind, port, groups == null ? List.of() : groups,
                samples, minInterval, idleAfter, staleAfter);
        try (ExporterServer server = ExporterServer.start(clients, settings)) {
            err().println("zkgroups: exporter listening on http://" + server.address() + "/metrics");
            err().flush();
            server.awaitInterrupt();
        }
        return ExitCode.OK;
    }
}
