package io.zkgroups.rebalancer.restart;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class HandoverIntakeTest {

    private static final HandoverTicket TICKET = HandoverFileTest.ticket();
    private static final Instant RELEASED = TICKET.releasedAt();
    private static final Duration GRACE = Duration.ofMillis(4000);

    @Test
    void theSameConsumerWithinTheGraceResumes() {
        assertThat(HandoverIntake.refusal(TICKET, "billing", Optional.empty(), GRACE, RELEASED.plusMillis(3999))).isEmpty();
        assertThat(HandoverIntake.refusal(TICKET, "billing", Optional.of("host-1700000000000-1a2b3c4d"), GRACE,
                RELEASED)).isEmpty();
    }

    @Test
    void pastTheGraceItDoesNot() {
        assertThat(HandoverIntake.refusal(TICKET, "billing", Optional.empty(), GRACE, RELEASED.plusMillis(4000)))
                .hasValueSatisfying(why -> assertThat(why).contains("zkgroups.restart.grace.ms").contains("4000 ms"));
    }

    @Test
    void aTicketFromTheFutureIsNotTrusted() {
        assertThat(HandoverIntake.refusal(TICKET, "billing", Optional.empty(), GRACE, RELEASED.minusMillis(1))).isPresent();
    }

    @Test
    void anotherGroupOrConsumerIdDoesNot() {
        assertThat(HandoverIntake.refusal(TICKET, "shipping", Optional.empty(), GRACE, RELEASED))
                .hasValueSatisfying(why -> assertThat(why).contains("group billing").contains("shipping"));
        assertThat(HandoverIntake.refusal(TICKET, "billing", Optional.of("other"), GRACE, RELEASED))
                .hasValueSatisfying(why -> assertThat(why).contains("consumer.id other"));
    }
}
