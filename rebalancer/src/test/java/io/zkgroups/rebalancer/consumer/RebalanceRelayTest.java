package io.zkgroups.rebalancer.consumer;

import io.zkgroups.registry.Time;
import io.zkgroups.registry.model.TopicAndPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class RebalanceRelayTest {

    private final BlockingDeque<RebalanceEvent> events = new LinkedBlockingDeque<>();
    /** A revoke timeout no test waits out: a revocation that returns was completed, not timed out. */
    private final RebalanceRelay bridge = new RebalanceRelay(events, Duration.ofHours(1), () -> { }, null, Time.SYSTEM);

    @Test
    void aRevocationSentJustBeforeThePollThreadLeftCompletesWhenItLeaves() throws Exception {
        CompletableFuture<Void> revoking = CompletableFuture.runAsync(
                () -> bridge.onRevoked(Set.of(new TopicAndPartition("t", 0))));
        await().atMost(Duration.ofSeconds(30)).until(() -> events.peekFirst() instanceof RebalanceEvent.Revoke);

        bridge.pollThreadGone(); // the poll thread revoked everything and closes: it never looks at this event

        revoking.get(30, TimeUnit.SECONDS);
        assertThat(((RebalanceEvent.Revoke) events.peekFirst()).done()).isDone();
    }

    @Test
    void aRevocationAfterThePollThreadLeftCompletesAtOnce() throws Exception {
        bridge.pollThreadGone();

        CompletableFuture.runAsync(() -> bridge.onRevoked(Set.of(new TopicAndPartition("t", 0))))
                .get(30, TimeUnit.SECONDS);
        assertThat(events).isEmpty();
    }
}
