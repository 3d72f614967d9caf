package io.zkgroups.tool.transfer;

import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OffsetFileParserTest {

    @Test
    void readsTheExportZkOffsetsLineFormatAndCsv() {
        ParsedOffsetFile parsed = OffsetFileParser.parse(List.of(
                "/consumers/group1/offsets/topic1/0:286894308",
                "group,topic,partition,offset",
                "group2,topic1,3,17",
                "",
                "# a comment"));
        assertThat(parsed.isValid()).isTrue();
        assertThat(parsed.records()).containsExactly(
                new OffsetRecord("group1", new TopicAndPartition("topic1", 0), 286894308L),
                new OffsetRecord("group2", new TopicAndPartition("topic1", 3), 17L));
        assertThat(parsed.lines()).containsExactly(1, 3);
    }

    @Test
    void reportsEveryBadLineWithItsNumber() {
        ParsedOffsetFile parsed = OffsetFileParser.parse(List.of(
                "/consumers/g/offsets/t/0:5",
                "/consumers/g/offsets/t/x:5",
                "/consumers/g/offsets/t/1:abc",
                "g,t,2,-1",
                "g,bad topic,3,4",
                "just text",
                "/consumers/g/offsets/t/0:6",
                "/consumers/g/offsets/t/0:5",
                "g,t,4,99999999999999999999"));
        assertThat(parsed.errors()).extracting(LineError::line).containsExactly(2, 3, 4, 5, 6, 7, 9);
        assertThat(parsed.errors().get(0).toString()).startsWith("line 2: partition 'x' is not a number");
        assertThat(parsed.errors().get(2).reason()).contains("negative");
        assertThat(parsed.errors().get(5).reason()).contains("appears again with offset 6 (line 1 says 5)");
        assertThat(parsed.errors().get(6).reason()).contains("does not fit in 64 bits");
        assertThat(parsed.records()).hasSize(1);
    }

    @Test
    void formatsRoundTrip() {
        OffsetRecord r = new OffsetRecord("g", new TopicAndPartition("t", 7), 42L);
        for (OffsetFileFormat f : OffsetFileFormat.values()) {
            assertThat(OffsetFileParser.parseForGroup(List.of(f.format(r)), "g").records()).as(f.name()).containsExactly(r);
        }
        for (OffsetFileFormat f : List.of(OffsetFileFormat.ZK, OffsetFileFormat.CSV)) {
            assertThat(OffsetFileParser.parse(List.of(f.format(r))).records()).as(f.name()).containsExactly(r);
        }
        assertThat(OffsetFileFormat.ZK.format(r)).isEqualTo("/consumers/g/offsets/t/7:42");
        assertThat(OffsetFileFormat.CSV.format(r)).isEqualTo("g,t,7,42");
        assertThat(OffsetFileFormat.KAFKA_CSV.format(r)).as("kafka-consumer-groups --from-file").isEqualTo("t,7,42");
        assertThat(OffsetFileFormat.KAFKA_CSV.header()).isNull();
    }

    @Test
    void threeColumnLinesWithoutAGroupSayThatTheyNeedOne() {
        ParsedOffsetFile parsed = OffsetFileParser.parse(List.of("t,0,5"));

        assertThat(parsed.errors()).hasSize(1);
        assertThat(parsed.errors().get(0).reason()).contains("topic,partition,offset lines need --group");
    }

    @Test
    void aResetFileForOneGroupAcceptsThreeColumnsAndRefusesOtherGroups() {
        ParsedOffsetFile parsed = OffsetFileParser.parseForGroup(List.of(
                "topic,partition,offset", "t,0,5", "g,t,1,6", "other,t,2,7"), "g");
        assertThat(parsed.records()).extracting(OffsetRecord::offset).containsExactly(5L, 6L);
        assertThat(parsed.errors()).singleElement().satisfies(e -> {
            assertThat(e.line()).isEqualTo(4);
            assertThat(e.reason()).contains("group 'other'");
        });
    }
}
