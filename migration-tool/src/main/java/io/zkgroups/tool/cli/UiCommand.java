package io.zkgroups.tool.cli;

import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.ui.UiServer;
import io.zkgroups.tool.ui.UiSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** {@code zkgroups ui}: a read-only live web page of the groups (docs/cli.md, docs/monitoring.md). */
@Command(name = "ui", sortOptions = false, description = {
        "Serve a read-only live page: the groups; one group's members, owners, offsets, lag in records and in seconds "
                + "with a chart of the last hour per partition, its history as a timeline, and which coordinator holds "
                + "its offsets; updated live (server-sent events) every --interval. Every asset comes from the jar.",
        "Binds to 127.0.0.1 unless --bind says otherwise. Beyond loopback it refuses to start (exit 2) without TLS "
                + "(--tls-keystore) and a credential (--basic-auth-file or --tls-client-truststore), unless --allow-open. "
                + "Runs until interrupted."})
final class UiCommand extends AbstractCommand {

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "9309", description = "TCP port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    int port;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--group", paramLabel = "G", description = "A group (repeatable; default: every group under /consumers).")
    List<String> groups;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "5s", converter = DurationParser.class,
            description = "Time between reads of the groups, and between live updates (default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--tls-keystore", paramLabel = "FILE", description = "PKCS12 keystore with the page's key and certificate: serve HTTPS.")
    Path keystore;

    @Option(names = "--tls-keystore-password-file", paramLabel = "FILE",
            description = "File whose first line is the keystore's password (default: the ZKGROUPS_UI_KEYSTORE_PASSWORD variable).")
    Path keystorePasswordFile;

    @Option(names = "--basic-auth-file", paramLabel = "FILE",
            description = "File whose first line is user:password: every request must present them (HTTP basic auth).")
    Path basicAuthFile;

    @Option(names = "--tls-client-truststore", paramLabel = "FILE",
            description = "PKCS12 truststore of the CAs whose client certificates are accepted: every connection must present one.")
    Path clientTruststore;

    @Option(names = "--tls-client-truststore-password-file", paramLabel = "FILE",
            description = "File whose first line is the client truststore's password.")
    Path clientTruststorePasswordFile;

    @Option(names = "--allow-open", description = "Serve beyond loopback without TLS or a credential, on purpose.")
    boolean allowOpen;

    @Option(names = "--stale-after", paramLabel = "DURATION", defaultValue = "5m", converter = DurationParser.class,
            description = "Phase inference: a ZooKeeper offset older than this is stale (default: ${DEFAULT-VALUE}).")
    Duration staleAfter;

    @Override
    ExitCode run(Clients clients) {
        if (port < 0 || port > 65535 || interval.isZero() || interval.isNegative()) {
            throw new CliException(ExitCode.USAGE, "--port must be within 0..65535 and --interval positive");
        }
        char[] keystorePassword = keystore == null ? null : password(keystorePasswordFile, "--tls-keystore-password-file",
                System.getenv("ZKGROUPS_UI_KEYSTORE_PASSWORD"));
        char[] truststorePassword = clientTruststore == null ? null
                : password(clientTruststorePasswordFile, "--tls-client-truststore-password-file", null);
        String basicAuth = basicAuthFile == null ? null : firstLine(basicAuthFile, "--basic-auth-file");
        UiSettings settings = new UiSettings(bind, port, interval, groups == null ? List.of() : groups, keystore,
                keystorePassword, basicAuth, clientTruststore, truststorePassword, allowOpen);
        settings.refusal().ifPresent(why -> {
            throw new CliException(ExitCode.USAGE, why);
        });
        try (UiServer server = UiServer.start(clients, settings, staleAfter)) {
            err().println("zkgroups: ui listening on " + server.address() + "/");
            err().flush();
            server.awaitInterrupt();
        }
        return ExitCode.OK;
    }

    private static char[] password(Path file, String option, String fallback) {
        if (file != null) {
            return firstLine(file, option).toCharArray();
        }
        return fallback == null ? new char[0] : fallback.toCharArray();
    }

    private static String firstLine(Path file, String option) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            if (lines.isEmpty() || lines.get(0).isEmpty()) {
                throw new CliException(ExitCode.BAD_INPUT_FILE, option + " " + file + " is empty");
            }
            return lines.get(0).strip();
        } catch (IOException e) {
            throw new CliException(ExitCode.BAD_INPUT_FILE, "cannot read " + option + " " + file + ": " + e.getMessage(), e);
        }
    }
}
