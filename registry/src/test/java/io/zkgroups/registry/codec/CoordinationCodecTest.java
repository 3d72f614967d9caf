package io.zkgroups.registry.codec;

import io.zkgroups.registry.model.CoordinationDecision;
import io.zkgroups.registry.model.Coordinator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The coordination decision {@code /consumers/G/zkgroups-coordination}, docs/cutover.md#the-decision-znode. */
class CoordinationCodecTest {

    private static CoordinationDecision decode(String text) throws DecodeException {
        return CoordinationCodec.decode(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aDecisionIsWrittenWithItsKeysInAFixedOrder() {
        byte[] bytes = CoordinationCodec.encode(new CoordinationDecision(Coordinator.KAFKA, 1795988925195L));
        assertThat(new String(bytes, StandardCharsets.UTF_8))
                .isEqualTo("{\"version\":1,\"coordinator\":\"kafka\",\"timestamp\":\"1795988925195\"}");
    }

    @Test
    void bothCoordinatorsSurviveTheRoundTrip() throws DecodeException {
        for (Coordinator c : Coordinator.values()) {
            CoordinationDecision decision = new CoordinationDecision(c, 42);
            assertThat(CoordinationCodec.decode(CoordinationCodec.encode(decision))).isEqualTo(decision);
        }
    }

    @Test
    void aNumericTimestampAndUnknownKeysAreAccepted() throws DecodeException {
        assertThat(decode("{\"coordinator\":\"zookeeper\",\"timestamp\":7,\"by\":\"ops\"}"))
                .isEqualTo(new CoordinationDecision(Coordinator.ZOOKEEPER, 7));
    }

    @Test
    void aCoordinatorThisVersionDoesNotKnowIsRefusedByName() {
        assertThatThrownBy(() -> decode("{\"version\":1,\"coordinator\":\"raft\",\"timestamp\":\"1\"}"))
                .isInstanceOf(DecodeException.class).hasMessageContaining("unknown coordinator 'raft'");
    }

    @Test
    void aDecisionWithoutCoordinatorOrWithABadTimestampIsRefused() {
        assertThatThrownBy(() -> decode("{\"version\":1}")).isInstanceOf(DecodeException.class)
                .hasMessageContaining("coordinator");
        assertThatThrownBy(() -> decode("{\"coordinator\":\"kafka\",\"timestamp\":\"soon\"}"))
                .isInstanceOf(DecodeException.class).hasMessageContaining("'soon' is not a number");
        assertThatThrownBy(() -> decode("not json")).isInstanceOf(DecodeException.class);
    }
}
