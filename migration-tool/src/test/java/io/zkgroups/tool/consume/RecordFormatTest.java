package io.zkgroups.tool.consume;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordFormatTest {

    private static final ConsumerRecord<byte[], byte[]> RECORD = new ConsumerRecord<>("t", 2, 42, 1_700_000_000_000L,
            TimestampType.CREATE_TIME, 1, 1, new byte[]{'k'}, new byte[]{'v'}, new RecordHeaders(), Optional.empty());

    @Test
    void byDefaultOnlyTheValue() {
        assertThat(RecordFormat.of(Map.of(), false).format(RECORD, "k", "v")).isEqualTo("v\n");
    }

    @Test
    void everyFieldInKafkasOrderWithTheKeySeparator() {
        RecordFormat all = RecordFormat.of(Map.of("print.timestamp", "true", "print.partition", "true",
                "print.offset", "true", "print.key", "true", "key.separator", "|"), false);

        assertThat(all.format(RECORD, "k", "v")).isEqualTo("CreateTime:1700000000000|Partition:2|Offset:42|k|v\n");
    }

    @Test
    void nullKeysAndValuesPrintAsNullAndTheOldPrintKeyFlagStillWorks() {
        assertThat(RecordFormat.of(Map.of(), true).format(RECORD, null, null)).isEqualTo("null\tnull\n");
        assertThat(RecordFormat.of(Map.of("print.key", "true", "print.value", "false", "line.separator", "\\n--\\n"), false)
                .format(RECORD, "k", "v")).isEqualTo("k\n--\n");
    }

    @Test
    void unknownPropertiesAndNonBooleanFlagsAreNamed() {
        assertThatThrownBy(() -> RecordFormat.of(Map.of("print.kye", "true"), false))
                .hasMessageStartingWith("--property print.kye: unknown (expected ");
        assertThatThrownBy(() -> RecordFormat.of(Map.of("print.offset", "yes"), false))
                .hasMessage("--property print.offset=yes: expected true or false");
    }
}
