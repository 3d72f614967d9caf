package io.zkgroups.chaos.monitor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HistoryReaderTest {

    @Test
    void readsTheRunsLogsAndSkipsALineTornByASigkill(@TempDir Path run) throws Exception {
        Files.writeString(run.resolve("acks.log"), "ACK 100 0 0\nACK 101 0 1\nACK 103 0");
        Files.createDirectories(run.resolve("members"));
        Files.writeString(run.resolve("members").resolve("m0-1.log"), String.join("\n",
                "START 90 chaos_m0-1 4242 correct",
                "ASSIGNED 110 0,1",
                "REC 120 0 0 1",
                "COMMIT 130 interval 0=2,1=0",
                "COMMITTED 131",
                "REC 140 1 0 0",
                "REC 150 1 1") + "\n");
        Files.writeString(run.resolve("members").resolve("m1-1.log"), "START 95 chaos_m1-1 4243 correct\nCLOSED 400\n");
        Files.writeString(run.resolve("journal.log"), "CLOCK 10 1000\nKILL 160 m0-1\nUNHEALTHY 170 3 90000 group ...\n");

        History h = HistoryReader.read(run, "chaos", "chaos-t");

        assertThat(h.acks()).extracting(History.Ack::offset).containsExactly(0L, 1L);
        assertThat(h.deliveries()).extracting(d -> d.partition() + "@" + d.offset() + "/" + d.nanos())
                .containsExactly("0@0/120", "0@1/120", "1@0/140");
        assertThat(h.events().get("m0-1")).extracting(History.MemberEvent::kind)
                .containsExactly("START", "ASSIGNED", "COMMIT", "COMMITTED");
        assertThat(h.events().get("m0-1").get(2).offsets()).containsEntry(0, 2L).containsEntry(1, 0L);
        assertThat(h.processEnds().get("m0-1")).isEqualTo(new History.ProcessEnd(160, "KILLED"));
        assertThat(h.processEnds().get("m1-1")).isEqualTo(new History.ProcessEnd(400, "CLOSED"));
        assertThat(h.unhealthy()).containsEntry(3, 90_000L);
        assertThat(h.zkHistoryKnown()).as("no transaction logs in this run directory").isFalse();
        assertThat(h.unchecked()).singleElement().satisfies(u -> assertThat(u).contains("ZooKeeper's transaction logs"));
    }

    @Test
    void aMalformedLineBeforeTheLastIsAFailedCheckNotASkippedLine(@TempDir Path run) throws Exception {
        Files.writeString(run.resolve("acks.log"), "ACK 100 0 0\nNACK 102 0 boom\nACK 103 0 2\nACK 104 0");
        Files.createDirectories(run.resolve("members"));
        Files.writeString(run.resolve("members").resolve("m0-1.log"),
                "START 90 chaos_m0-1 4242 correct\nREC 120 0 zero 1\nCLOSED 400\n");
        Files.writeString(run.resolve("journal.log"), "CLOCK 10 1000\nHEALTHY 20 1 300\nNOT-RESUMED 30 1 30000\n");

        History h = HistoryReader.read(run, "chaos", "chaos-t");

        assertThat(h.acks()).extracting(History.Ack::offset).containsExactly(0L, 2L);
        assertThat(h.notResumed()).containsEntry(1, 30_000L);
        assertThat(h.unchecked()).anySatisfy(u -> assertThat(u).endsWith("acks.log:2: malformed line 'NACK 102 0 boom'"))
                .anySatisfy(u -> assertThat(u).endsWith("m0-1.log:2: malformed line 'REC 120 0 zero 1'"))
                .noneSatisfy(u -> assertThat(u).contains("ACK 104 0"));
    }

    @Test
    void consumerOffsetsThatCouldNotBeReadOrAreMissingAreAFailedCheck(@TempDir Path run) throws Exception {
        Files.writeString(run.resolve("journal.log"),
                "CLOCK 10 1000\nUNCHECKED 20 cannot read __consumer_offsets: timed out\n");
        assertThat(HistoryReader.read(run, "chaos", "chaos-t").unchecked())
                .contains("cannot read __consumer_offsets: timed out");

        Files.writeString(run.resolve("journal.log"), "CLOCK 10 1000\nKAFKA-OFFSETS 20 5 commits of chaos\n");
        assertThat(HistoryReader.read(run, "chaos", "chaos-t").unchecked())
                .anySatisfy(u -> assertThat(u).contains("kafka-offsets.log is missing"));
    }

    @Test
    void readsARevocationThatTimedOutTheRunsBrokerRestartsAndItsKafkaCommits(@TempDir Path run) throws Exception {
        Files.createDirectories(run.resolve("members"));
        Files.writeString(run.resolve("members").resolve("m0-1.log"), String.join("\n",
                "START 90 chaos_m0-1 4242 correct", "ASSIGNED 110 2,3", "REVOKE-TIMEOUT 200 3", "LOST 201 3") + "\n");
        Files.writeString(run.resolve("journal.log"), String.join("\n", "CLOCK 1000000000 5000",
                "FAULT 300 4 restart-broker", "TERM 301 kafka", "FAULT-END 900 4 restarted the broker in 599 ms") + "\n");
        Files.writeString(run.resolve("kafka-offsets.log"), String.join("\n",
                "KAFKA-OFFSET 7 0 chaos chaos-t 3 41 5002", "KAFKA-OFFSET 7 1 other chaos-t 3 9 5003",
                "KAFKA-OFFSET 7 2 chaos chaos-t 3 -1 -1") + "\n");

        History h = HistoryReader.read(run, "chaos", "chaos-t");

        assertThat(h.events().get("m0-1").get(2)).satisfies(e -> {
            assertThat(e.kind()).isEqualTo("REVOKE-TIMEOUT");
            assertThat(e.partitions()).containsExactly(3);
        });
        assertThat(h.brokerDown()).containsExactly(new History.Span(301, 900));
        assertThat(h.faultAt(500)).isEqualTo("#4 restart-broker");
        assertThat(h.kafkaCommits()).containsExactly(new History.KafkaCommit(1_002_500_000L, 0, 3, 41),
                new History.KafkaCommit(-1, 2, 3, -1));
    }

    @Test
    void aKilledOrUnresponsiveBrokerIsDownUntilItsFaultEnds(@TempDir Path run) throws Exception {
        Files.createDirectories(run.resolve("members"));
        Files.writeString(run.resolve("members").resolve("m0-1.log"), "START 90 chaos_m0-1 4242 correct\n");
        Files.writeString(run.resolve("journal.log"), String.join("\n", "CLOCK 1000000000 5000",
                "FAULT 300 1 broker-stopped-rebalance", "KILL 301 kafka", "TERM 302 m1-1", "START 18000 kafka",
                "FAULT-END 18500 1 broker stopped: m1-1 left",
                "FAULT 20000 2 broker-unresponsive-rebalance", "BLACKHOLE 20001 kafka links of every member",
                "TERM 20002 m2-1", "HEAL 25000 kafka links of every member", "FAULT-END 25001 2 broker unresponsive",
                "KILL 26000 m0-1") + "\n");

        History h = HistoryReader.read(run, "chaos", "chaos-t");

        assertThat(h.brokerDown()).containsExactly(new History.Span(301, 18_500), new History.Span(20_001, 25_001));
    }

    @Test
    void mapsZooKeepersWallClockOntoNanoTimeWithTheNearestPair() {
        ClockMap clock = new ClockMap(List.of(new ClockMap.Pair(5_000_000_000L, 1_000), new ClockMap.Pair(9_000_000_000L, 5_010)));

        // the middle of the millisecond, from the pair nearest in wall time
        assertThat(clock.nanosOf(1_002)).isEqualTo(5_002_500_000L);
        assertThat(clock.nanosOf(5_000)).isEqualTo(8_990_500_000L);
    }
}
