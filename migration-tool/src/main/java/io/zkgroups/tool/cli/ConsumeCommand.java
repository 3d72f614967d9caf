package io.zkgroups.tool.cli;

import io.zkgroups.rebalancer.consumer.ZkGroupConsumer;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.io.ConnectionSettings;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * {@code zkgroups consume}: a console consumer on {@link ZkGroupConsumer} — one record value per line, for
 * demos, scripts and smoke tests. It joins the group like any member; on SIGTERM (or after
 * {@code --max-messages}) it commits exactly what it printed and leaves.
 */
@Command(name = "consume", sortOptions = false, description = {
        "Consume a topic as a member of a ZooKeeper-coordinated group and print one record value per line.",
        "Stops after --max-messages or on SIGTERM/Ctrl-C, committing exactly what it printed."})
final class ConsumeCommand implements Callable<Integer> {

    @Mixin
    CommonOptions common;

    @Spec
    CommandSpec spec;

    @Option(names = "--group", description = "Group id (default: zkgroups-console-<random>, like 0.8's console consumer).")
    String group;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Subscription subscription;

    static final class Subscription {
        @Option(names = "--topic", required = true, split = ",", description = "Topic(s) to consume.")
        List<String> topics;

        @Option(names = "--whitelist", required = true, description = "Regex of topics to consume (0.8 white_list).")
        String whitelist;
    }

    @Option(names = "--from-beginning", description = "Without a committed offset, start at the earliest record (default: latest).")
    boolean fromBeginning;

    @Option(names = "--max-messages", paramLabel = "N", description = "Stop after N records.")
    Long maxMessages;

    @Option(names = {"--consumer.config", "--consumer-config"}, paramLabel = "FILE",
            description = "Consumer properties (0.8 names like offsets.storage, or kafka-clients names).")
    Path consumerConfig;

    @Option(names = "--print-key", description = "Print key<TAB>value.")
    boolean printKey;

    @Override
    public Integer call() {
        if (common.zookeeper == null || common.zookeeper.isBlank()) {
            throw new CliException(ExitCode.USAGE, "missing --zookeeper (or set ZKGROUPS_ZOOKEEPER)");
        }
        if (maxMessages != null && maxMessages < 1) {
            throw new CliException(ExitCode.USAGE, "--max-messages must be at least 1");
        }
        Properties props = properties();
        PrintWriter out = spec.commandLine().getOut();
        CountDownLatch finished = new CountDownLatch(1);
        ZkGroupConsumer<String, String> consumer = new ZkGroupConsumer<>(props, new StringDeserializer(), new StringDeserializer());
        // On SIGTERM the JVM halts as soon as its shutdown hooks return, so this hook must wait until close() has
        // committed and left the group; released only after close(), never before.
        Thread stopper = new Thread(() -> {
            consumer.wakeup();
            awaitQuietly(finished);
        }, "zkgroups-consume-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        try {
            try {
                consume(consumer, out);
            } finally {
                consumer.close(); // commits what was printed, releases the partitions, deletes the registration
            }
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(stopper);
            } catch (IllegalStateException shuttingDown) {
                // SIGTERM: the hook is returning now that close() is done
            }
        }
        return ExitCode.OK.code();
    }

    private void consume(ZkGroupConsumer<String, String> consumer, PrintWriter out) {
        if (subscription.whitelist != null) {
            consumer.subscribe(Pattern.compile(subscription.whitelist));
        } else {
            consumer.subscribe(subscription.topics);
        }
        long printed = 0;
        try {
            while (maxMessages == null || printed < maxMessages) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(500));
                Map<TopicPartition, Long> next = new HashMap<>();
                for (ConsumerRecord<String, String> record : records) {
                    if (maxMessages != null && printed >= maxMessages) {
                        break;
                    }
                    out.println(printKey ? record.key() + "\t" + record.value() : record.value());
                    printed++;
                    next.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
                }
                out.flush();
                if (maxMessages != null && printed >= maxMessages) {
                    // stop exactly after the last printed record: close() commits these positions
                    for (TopicPartition tp : records.partitions()) {
                        long firstNotPrinted = next.getOrDefault(tp, records.records(tp).get(0).offset());
                        consumer.seek(tp, firstNotPrinted);
                    }
                }
            }
        } catch (WakeupException stop) {
            // SIGTERM: close() below commits and leaves the group
        }
    }

    private Properties properties() {
        Properties props = new Properties();
        if (consumerConfig != null) {
            try (InputStream in = Files.newInputStream(consumerConfig)) {
                props.load(in);
            } catch (IOException e) {
                throw new CliException(ExitCode.BAD_INPUT_FILE, "cannot read " + consumerConfig + ": " + e.getMessage());
            }
        }
        props.setProperty("zookeeper.connect", common.zookeeper.strip());
        if (group != null) {
            props.setProperty("group.id", group);
        } else {
            props.putIfAbsent("group.id", "zkgroups-console-" + ThreadLocalRandom.current().nextInt(100_000));
        }
        if (common.bootstrapServer != null && !common.bootstrapServer.isBlank()) {
            props.setProperty("bootstrap.servers", common.bootstrapServer.strip());
        }
        if (fromBeginning) {
            props.setProperty("auto.offset.reset", "smallest");
        }
        props.putIfAbsent("auto.commit.interval.ms", "1000");
        // ZooKeeper TLS/SASL/ACLs and --zk-auth, checked as every command checks them
        ConnectionSettings settings = common.clients().settings();
        Clients.zooKeeperSecurity(settings);
        props.putAll(Clients.zooKeeperSecurityProperties(settings));
        if (common.commandConfig != null) {
            try (InputStream in = Files.newInputStream(common.commandConfig)) {
                props.load(in);
            } catch (IOException e) {
                throw new CliException(ExitCode.BAD_INPUT_FILE, "cannot read " + common.commandConfig + ": " + e.getMessage());
            }
        }
        return props;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(java.util.concurrent.TimeUnit.SECONDS.toMillis(30), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
