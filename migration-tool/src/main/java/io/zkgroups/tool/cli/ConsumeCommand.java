package io.zkgroups.tool.cli;

import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.Errors;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.consume.ConsoleGroup;
import io.zkgroups.tool.consume.ConsoleLoop;
import io.zkgroups.tool.consume.RecordDecoder;
import io.zkgroups.tool.consume.RecordFormat;
import io.zkgroups.tool.io.Clients;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * {@code zkgroups consume}: a console consumer on {@link ZkGroupConsumer}, printing records as Kafka's
 * {@code kafka-console-consumer} does. It joins the group like any member; when it stops (SIGTERM, Ctrl-C,
 * {@code --max-messages}, {@code --timeout-ms}) it commits exactly what it printed and leaves, and removes the
 * group it generated.
 */
@Command(name = "consume", sortOptions = false, description = {
        "Consume a topic as a member of a ZooKeeper-coordinated group and print its records, one per line, as Kafka's "
                + "console consumer does (--property print.key=true ...).",
        "Stops after --max-messages, after --timeout-ms without a record, or on SIGTERM/Ctrl-C, committing exactly what "
                + "it printed. A group it generated (no --group) is removed from ZooKeeper when it stops.",
        "Exit 12 when a record cannot be deserialized (without --skip-message-on-error)."})
final class ConsumeCommand implements Callable<Integer> {

    @Mixin
    CommonOptions common;

    @Spec
    CommandSpec spec;

    @Option(names = "--group", paramLabel = "G", description = "Group id (default: zkgroups-console-<random>, removed on exit like 0.8's "
            + "console consumer's).")
    String group;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Subscription subscription;

    static final class Subscription {
        @Option(names = "--topic", paramLabel = "T", required = true, split = ",", description = "Topic(s) to consume.")
        List<String> topics;

        @Option(names = "--whitelist", paramLabel = "REGEX", required = true, description = "Regex of topics to consume (0.8 white_list).")
        String whitelist;
    }

    @Option(names = "--from-beginning", description = "Without a committed offset, start at the earliest record (default: latest).")
    boolean fromBeginning;

    @Option(names = "--max-messages", paramLabel = "N", description = "Stop after N records.")
    Long maxMessages;

    @Option(names = "--timeout-ms", paramLabel = "DURATION", converter = DurationParser.class,
            description = "Stop when no record arrived for this long (milliseconds like Kafka's, or 30s, 2m, ...).")
    Duration idleTimeout;

    @Option(names = {"--consumer.config", "--consumer-config"}, paramLabel = "FILE",
            description = "Consumer properties (0.8 names like offsets.storage, or kafka-clients names).")
    Path consumerConfig;

    @Option(names = "--property", paramLabel = "NAME=VALUE",
            description = "Output as Kafka's console consumer: print.key, print.partition, print.offset, print.timestamp, "
                    + "print.value (true|false), key.separator, line.separator, key.deserializer, value.deserializer.")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(names = "--key-deserializer", paramLabel = "CLASS",
            description = "Kafka Deserializer of the keys: StringDeserializer (default), ByteArrayDeserializer, "
                    + "LongDeserializer, IntegerDeserializer, ... or a full class name on the classpath.")
    String keyDeserializer;

    @Option(names = "--value-deserializer", paramLabel = "CLASS", description = "Kafka Deserializer of the values (as above).")
    String valueDeserializer;

    @Option(names = "--skip-message-on-error",
            description = "Report a record that cannot be deserialized on stderr and go on (default: stop, exit 12).")
    boolean skipMessageOnError;

    @Option(names = "--print-key", description = "Same as --property print.key=true (key<TAB>value).")
    boolean printKey;

    @Override
    public Integer call() {
        if (common.zookeeper == null || common.zookeeper.isBlank()) {
            throw new CliException(ExitCode.USAGE, "missing --zookeeper (or set ZKGROUPS_ZOOKEEPER)");
        }
        if (maxMessages != null && maxMessages < 1) {
            throw new CliException(ExitCode.USAGE, "--max-messages must be at least 1");
        }
        if (idleTimeout != null && idleTimeout.isZero()) {
            throw new CliException(ExitCode.USAGE, "--timeout-ms must be positive");
        }
        RecordFormat format;
        RecordDecoder decoder;
        try {
            format = RecordFormat.of(properties, printKey);
            decoder = new RecordDecoder(deserializer(keyDeserializer, "key.deserializer", "--key-deserializer", true),
                    deserializer(valueDeserializer, "value.deserializer", "--value-deserializer", false));
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCode.USAGE, e.getMessage());
        }
        try (Clients clients = common.clients()) {
            ConsoleGroup consoleGroup = group != null ? ConsoleGroup.named(group) : null;
            Properties props = properties(clients);
            if (consoleGroup == null) {
                consoleGroup = props.containsKey("group.id") ? ConsoleGroup.named(props.getProperty("group.id"))
                        : ConsoleGroup.generate();
            }
            props.setProperty("group.id", consoleGroup.id());
            return run(props, consoleGroup, clients, decoder, format).code();
        } finally {
            decoder.close();
        }
    }

    private ExitCode run(Properties props, ConsoleGroup consoleGroup, Clients clients, RecordDecoder decoder,
                         RecordFormat format) {
        PrintWriter err = spec.commandLine().getErr();
        consoleGroup.prepare(clients.zk());
        CountDownLatch finished = new CountDownLatch(1);
        ZkGroupConsumer<byte[], byte[]> consumer;
        try {
            consumer = new ZkGroupConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        } catch (RuntimeException e) {
            removeGenerated(consoleGroup, clients, err);
            throw e;
        }
        // On SIGTERM the JVM halts as soon as its shutdown hooks return, so this hook must wait until close() has
        // committed and left the group (and the generated group is gone); released only then, never before.
        Thread stopper = new Thread(() -> {
            consumer.wakeup();
            awaitQuietly(finished);
        }, "zkgroups-consume-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        ConsoleLoop.Outcome outcome;
        try {
            try {
                subscribe(consumer);
                outcome = new ConsoleLoop(consumer, decoder, format, skipMessageOnError,
                        new ConsoleLoop.Limits(maxMessages, idleTimeout), spec.commandLine().getOut(), err).run();
            } finally {
                consumer.close(); // commits what was printed, releases the partitions, deletes the registration
                removeGenerated(consoleGroup, clients, err);
            }
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(stopper);
            } catch (IllegalStateException shuttingDown) {
                // SIGTERM: the hook is returning now that close() is done
            }
        }
        err.println("zkgroups: consume stopped (" + outcome.stopReason() + "): processed a total of " + outcome.printed()
                + " messages" + (outcome.skipped() == 0 ? "" : ", skipped " + outcome.skipped()));
        err.flush();
        if (outcome.failure() != null) {
            throw new CliException(ExitCode.UNDECODABLE_RECORD, outcome.failure());
        }
        return ExitCode.OK;
    }

    private void subscribe(ZkGroupConsumer<byte[], byte[]> consumer) {
        if (subscription.whitelist != null) {
            consumer.subscribe(Pattern.compile(subscription.whitelist));
        } else {
            consumer.subscribe(subscription.topics);
        }
    }

    private static void removeGenerated(ConsoleGroup group, Clients clients, PrintWriter err) {
        try {
            group.removeIfGenerated(clients.zk());
        } catch (RuntimeException e) {
            err.println("zkgroups: warning: could not remove the generated group " + group.id() + " from ZooKeeper: "
                    + Errors.translate(e).getMessage());
            err.flush();
        }
    }

    /** The option if given, else the {@code --property} of Kafka's name, else StringDeserializer. */
    private Deserializer<?> deserializer(String option, String property, String optionName, boolean isKey) {
        if (option != null) {
            return RecordDecoder.deserializer(option, optionName, isKey);
        }
        String fromProperty = properties.get(property);
        return fromProperty != null ? RecordDecoder.deserializer(fromProperty, "--property " + property, isKey)
                : RecordDecoder.deserializer("StringDeserializer", optionName, isKey);
    }

    private Properties properties(Clients clients) {
        Properties props = new Properties();
        if (consumerConfig != null) {
            load(props, consumerConfig);
        }
        props.setProperty("zookeeper.connect", common.zookeeper.strip());
        if (common.bootstrapServer != null && !common.bootstrapServer.isBlank()) {
            props.setProperty("bootstrap.servers", common.bootstrapServer.strip());
        }
        if (fromBeginning) {
            props.setProperty("auto.offset.reset", "smallest");
        }
        props.putIfAbsent("auto.commit.interval.ms", "1000");
        // ZooKeeper TLS/SASL/ACLs and --zk-auth, checked as every command checks them
        Clients.zooKeeperSecurity(clients.settings());
        props.putAll(Clients.zooKeeperSecurityProperties(clients.settings()));
        if (common.commandConfig != null) {
            load(props, common.commandConfig);
        }
        return props;
    }

    private static void load(Properties props, Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            props.load(in);
        } catch (IOException e) {
            throw new CliException(ExitCode.BAD_INPUT_FILE, "cannot read " + file + ": " + e.getMessage());
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
