package io.zkgroups.it.consumer;

import io.zkgroups.it.support.KafkaOnZooKeeperExtension;
import io.zkgroups.registry.ZkRegistry;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.embedded.EmbeddedKafka;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code enable.auto.commit=false} as Kafka means it: a member in a child JVM commits once ({@code commitSync()} after
 * its first batch), keeps handing out records it never commits, and is killed with SIGKILL. Its successor gets every
 * record after the explicit commit again, and no offset is ever written that an application did not commit: not by
 * the killed member's polls (auto-commit every 100 ms would have), not by the successor's polls or close.
 */
@Timeout(180)
class UncommittedRecordsIT {

    private static final int PARTITIONS = 2;
    private static final int PER_PARTITION = 200;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    static final KafkaOnZooKeeperExtension servers = new KafkaOnZooKeeperExtension();

    @Test
    void recordsAKilledMemberHandedOutButNeverCommittedAreDeliveredAgainAndNothingElseIsCommitted() throws Exception {
        String group = "manual";
        String topic = group + "-t";
        servers.broker().createTopic(topic, PARTITIONS);
        produce(topic);
        DeliveryLog log = new DeliveryLog();
        ZkRegistry registry = ZkRegistry.of(servers.client());

        Map<String, String> killedProps = new LinkedHashMap<>();
        manualCommit(servers.consumerProperties(group, "a-killed", 2000))
                .forEach((k, v) -> killedProps.put(k.toString(), v.toString()));
        killedProps.put("max.poll.records", "20");
        killedProps.put("test.commit", "once");
        ChildConsumer killed = ChildConsumer.start("a-killed", topic, killedProps, log);
        Map<Integer, Long> committed;
        try {
            int line = killed.awaitLine(0, l -> l.startsWith("COMMITTED-AT "), WAIT,
                    "the one commitSync() after the first batch");
            committed = parseOffsets(killed.events().get(line).substring("COMMITTED-AT ".length()));
            assertThat(committed).as("commitSync() committed a position for every partition").hasSize(PARTITIONS);
            killed.awaitDelivered(PARTITIONS * PER_PARTITION, WAIT);
            // five polls after the last record: auto-commit every 100 ms would have written the positions by now
            killed.awaitLine(0, "IDLE"::equals, WAIT, "idle polls after delivering everything");
            assertThat(committedOffsets(registry, group, topic))
                    .as("offsets after the member polled on past its commit: only what it committed").isEqualTo(committed);
            killed.kill();
        } finally {
            killed.destroy();
        }
        assertThat(committed.values()).as("the commit covered only part of what was handed out")
                .allSatisfy(offset -> assertThat(offset).isLessThan(PER_PARTITION));

        Properties successorProps = manualCommit(servers.consumerProperties(group, "b-successor", 6000));
        try (ConsumerWorker successor = new ConsumerWorker("b-successor", successorProps, List.of(topic), log)) {
            await("the successor delivers the killed member's uncommitted records").atMost(WAIT)
                    .until(() -> log.deliveries().stream().filter(d -> d.member().equals("b-successor")).count()
                            >= 2L * PER_PARTITION - committed.values().stream().mapToLong(Long::longValue).sum());
        }

        for (int p = 0; p < PARTITIONS; p++) {
            TopicPartition tp = new TopicPartition(topic, p);
            List<Long> again = log.deliveries().stream()
                    .filter(d -> d.member().equals("b-successor") && d.partition().equals(tp))
                    .map(DeliveryLog.Delivery::offset).sorted().collect(Collectors.toList());
            List<Long> expected = new ArrayList<>();
            for (long offset = committed.get(p); offset < PER_PARTITION; offset++) {
                expected.add(offset);
            }
            assertThat(again).as("partition " + p + ": from the killed member's commit to the end, once each")
                    .isEqualTo(expected);
        }
        assertThat(committedOffsets(registry, group, topic))
                .as("after the successor polled everything and closed: still only the application's one commit")
                .isEqualTo(committed);
    }

    /** {@code 0=20,1=0} → partition → offset. */
    private static Map<Integer, Long> parseOffsets(String text) {
        Map<Integer, Long> offsets = new TreeMap<>();
        for (String entry : text.split(",")) {
            String[] kv = entry.split("=");
            offsets.put(Integer.parseInt(kv[0]), Long.parseLong(kv[1]));
        }
        return offsets;
    }

    private static Properties manualCommit(Properties p) {
        p.setProperty("enable.auto.commit", "false");
        p.remove("auto.commit.enable");
        return p; // auto.commit.interval.ms stays at 100: it must not matter
    }

    private static void produce(String topic) {
        List<EmbeddedKafka.Record> records = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            for (int i = 0; i < PER_PARTITION; i++) {
                records.add(EmbeddedKafka.Record.to(p, "k" + i, "v" + p + "-" + i));
            }
        }
        servers.broker().produce(topic, records.toArray(EmbeddedKafka.Record[]::new));
    }

    private static Map<Integer, Long> committedOffsets(ZkRegistry registry, String group, String topic) {
        List<TopicAndPartition> partitions = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            partitions.add(TopicAndPartition.of(topic, p));
        }
        Map<Integer, Long> offsets = new TreeMap<>();
        registry.offsets().read(group, partitions).offsets().forEach((tp, offset) -> offsets.put(tp.partition(), offset));
        return offsets;
    }
}
