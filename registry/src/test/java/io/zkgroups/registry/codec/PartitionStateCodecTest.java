package io.zkgroups.registry.codec;

import io.zkgroups.registry.model.PartitionState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Partition state {@code /brokers/topics/T/partitions/P/state},
 * docs/compatibility.md#broker-and-topic-registrations.
 */
class PartitionStateCodecTest {

    private static final String OBSERVED = "{\"controller_epoch\":7,\"leader\":1,\"version\":1,\"leader_epoch\":5,\"isr\":[1,2]}";

    private static PartitionState decode(String json) throws DecodeException {
        return PartitionStateCodec.decode(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void isWrittenByteForByteLikeThe082Controller() {
        byte[] encoded = PartitionStateCodec.encode(new PartitionState(7, 1, 5, List.of(1, 2)));

        assertThat(new String(encoded, StandardCharsets.UTF_8)).isEqualTo(OBSERVED);
    }

    @Test
    void observedStateDecodes() throws DecodeException {
        PartitionState state = decode(OBSERVED);

        assertThat(state).isEqualTo(new PartitionState(7, 1, 5, List.of(1, 2)));
        assertThat(state.hasLeader()).isTrue();
    }

    @Test
    void leaderMinusOneMeansNoLeader() throws DecodeException {
        assertThat(decode("{\"controller_epoch\":7,\"leader\":-1,\"version\":1,\"leader_epoch\":6,\"isr\":[]}").hasLeader())
                .isFalse();
    }

    @Test
    void laterControllersExtraKeysAreIgnored() throws DecodeException {
        PartitionState state = decode("{\"controller_epoch\":3,\"leader\":2,\"version\":1,\"leader_epoch\":9,"
                + "\"isr\":[2,0],\"leader_recovery_state\":0,\"partition_epoch\":12}");

        assertThat(state).isEqualTo(new PartitionState(3, 2, 9, List.of(2, 0)));
    }

    @Test
    void onlyTheLeaderIsRequired() throws DecodeException {
        assertThat(decode("{\"leader\":4}")).isEqualTo(new PartitionState(-1, 4, -1, List.of()));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{}",
            "{\"leader\":null}",
            "{\"leader\":\"1\"}",
            "{\"leader\":1.0}",
            "{\"leader\":2147483648}",
            "{\"leader\":1,\"isr\":{}}",
            "{\"leader\":1,\"isr\":[\"1\"]}",
            "{\"leader\":1,\"controller_epoch\":[]}",
            "{\"leader\":1,\"leader_epoch\":1e3}",
            "1",
            "{\"leader\":1} {\"leader\":2}",
            "{\"leader\":1}]",
    })
    void malformedStatesAreRejected(String json) {
        assertThatThrownBy(() -> decode(json))
                .isInstanceOf(DecodeException.class)
                .hasMessageStartingWith("partition state: ");
    }
}
