package io.zkgroups.tool.cli;

import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.io.ConnectionSettings;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;

/** The options every command takes: how to connect, how to print. */
public final class CommonOptions {

    @Option(names = "--zookeeper", paramLabel = "HOST:PORT[/CHROOT]", defaultValue = "${env:ZKGROUPS_ZOOKEEPER}",
            description = "ZooKeeper connect string, with the chroot of the Kafka cluster if it has one "
                    + "(default: $ZKGROUPS_ZOOKEEPER).")
    String zookeeper;

    @Option(names = "--bootstrap-server", paramLabel = "HOST:PORT[,...]", defaultValue = "${env:ZKGROUPS_BOOTSTRAP_SERVER}",
            description = "Kafka bootstrap servers. Optional when the brokers register in /brokers/ids: then taken "
                    + "from there (default: $ZKGROUPS_BOOTSTRAP_SERVER).")
    String bootstrapServer;

    @Option(names = "--command-config", paramLabel = "FILE",
            description = "Kafka client properties (security.protocol, sasl.*, ssl.*).")
    Path commandConfig;

    @Option(names = "--zk-auth", paramLabel = "USER:PASSWORD", defaultValue = "${env:ZKGROUPS_ZK_AUTH}",
            description = "ZooKeeper digest credentials (default: $ZKGROUPS_ZK_AUTH).")
    String zkAuth;

    @Option(names = "--zk-tls-config-file", paramLabel = "FILE", defaultValue = "${env:ZKGROUPS_ZK_TLS_CONFIG_FILE}",
            description = "ZooKeeper client security properties, Kafka's names: zookeeper.ssl.client.enable, "
                    + "zookeeper.ssl.keystore.*, zookeeper.ssl.truststore.*, zookeeper.clientCnxnSocket, zookeeper.sasl.*, "
                    + "zookeeper.set.acl, zookeeper.client.config (default: $ZKGROUPS_ZK_TLS_CONFIG_FILE). "
                    + "SASL also needs -Djava.security.auth.login.config=JAAS_FILE in ZKGROUPS_JAVA_OPTS.")
    Path zkTlsConfigFile;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "10s", converter = DurationParser.class,
            description = "Bound of every connection attempt and request: milliseconds like Kafka's tools (5000) or a "
                    + "duration (10s, 1m) (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--output", paramLabel = "FORMAT", defaultValue = "table",
            description = "table or json (default: ${DEFAULT-VALUE}). JSON goes to stdout alone; messages go to stderr.")
    OutputFormat output;

    @Option(names = "--verbose", description = "Print stack traces of errors and library logs at INFO.")
    boolean verbose;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    public OutputFormat output() {
        return output;
    }

    public boolean json() {
        return output == OutputFormat.json;
    }

    public Duration timeout() {
        return timeout;
    }

    /** Clients for these options; fails with a usage error when --zookeeper is missing. */
    public Clients clients() {
        if (zookeeper == null || zookeeper.isBlank()) {
            throw new CliException(ExitCode.USAGE, "missing --zookeeper (or set ZKGROUPS_ZOOKEEPER)");
        }
        if (timeout.isZero() || timeout.isNegative()) {
            throw new CliException(ExitCode.USAGE, "--timeout must be positive");
        }
        return new Clients(new ConnectionSettings(zookeeper.strip(), blankToNull(bootstrapServer), commandConfig,
                blankToNull(zkAuth), zkTlsConfigFile == null || zkTlsConfigFile.toString().isBlank() ? null : zkTlsConfigFile,
                timeout));
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
