package io.zkgroups.registry.server;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** When a client's servers are asked again: only after a finding that rests on silence, each time twice as late. */
class LearnedGenerationTest {

    private static final long S = 1_000_000_000L;
    private static final ServerProbe.Finding SILENT = new ServerProbe.Finding(ServerGeneration.V3_5, "silent", true);
    private static final ServerProbe.Finding NEW = new ServerProbe.Finding(ServerGeneration.V3_6_OR_LATER, "3.9.5", false);

    /** Answers with the findings given, in order, and counts the probes. */
    private static final class Script implements Callable<ServerProbe.Finding> {
        private final Deque<Object> answers = new ArrayDeque<>();
        int probes;

        Script(Object... answers) {
            for (Object answer : answers) {
                this.answers.add(answer);
            }
        }

        @Override
        public ServerProbe.Finding call() throws Exception {
            probes++;
            Object next = answers.isEmpty() ? null : answers.poll();
            if (next instanceof Exception) {
                throw (Exception) next;
            }
            return (ServerProbe.Finding) next;
        }
    }

    @Test
    void aCallerWhileTheFirstProbeIsUnderWayWaitsForItsAnswerInsteadOfAskingAgain() throws Exception {
        LearnedGeneration learned = new LearnedGeneration();
        CountDownLatch probing = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        AtomicInteger probes = new AtomicInteger();
        Callable<ServerProbe.Finding> slow = () -> {
            probes.incrementAndGet();
            probing.countDown();
            answer.await();
            return NEW;
        };
        CompletableFuture<LearnedGeneration.Learned> first = asking(learned, slow);
        probing.await();
        CompletableFuture<LearnedGeneration.Learned> second = asking(learned, slow);
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> !second.isDone());
        answer.countDown();

        assertThat(second.get(5, TimeUnit.SECONDS).generation).isEqualTo(ServerGeneration.V3_6_OR_LATER);
        assertThat(first.get(5, TimeUnit.SECONDS).news).isEqualTo(NEW);
        assertThat(probes).hasValue(1);
    }

    @Test
    void aCallerWaitingOnAFirstProbeThatFailsAsksItself() throws Exception {
        LearnedGeneration learned = new LearnedGeneration();
        CountDownLatch probing = new CountDownLatch(1);
        CountDownLatch fail = new CountDownLatch(1);
        AtomicInteger probes = new AtomicInteger();
        Callable<ServerProbe.Finding> failingFirst = () -> {
            if (probes.incrementAndGet() == 1) {
                probing.countDown();
                fail.await();
                throw new IOException("connection loss");
            }
            return NEW;
        };
        CompletableFuture<LearnedGeneration.Learned> first = asking(learned, failingFirst);
        probing.await();
        CompletableFuture<LearnedGeneration.Learned> second = asking(learned, failingFirst);
        fail.countDown();

        assertThat(second.get(5, TimeUnit.SECONDS).generation).isEqualTo(ServerGeneration.V3_6_OR_LATER);
        assertThatThrownBy(() -> first.get(5, TimeUnit.SECONDS)).hasRootCauseInstanceOf(IOException.class);
        assertThat(probes).hasValue(2);
    }

    /** Asks on a thread of its own, as a consumer's look-ahead and its member's join do. */
    private static CompletableFuture<LearnedGeneration.Learned> asking(LearnedGeneration learned,
                                                                       Callable<ServerProbe.Finding> probe) {
        CompletableFuture<LearnedGeneration.Learned> answer = new CompletableFuture<>();
        Thread asker = new Thread(() -> {
            try {
                answer.complete(learned.get(0, probe));
            } catch (Exception e) {
                answer.completeExceptionally(e);
            }
        });
        asker.setDaemon(true);
        asker.start();
        return answer;
    }

    @Test
    void aSettledFindingIsNeverAskedAgain() throws Exception {
        LearnedGeneration learned = new LearnedGeneration();
        Script probe = new Script(NEW);

        assertThat(learned.get(0, probe).news).isEqualTo(NEW);
        assertThat(learned.get(3_600 * S, probe).generation).isEqualTo(ServerGeneration.V3_6_OR_LATER);
        assertThat(learned.get(3_600 * S, probe).news).isNull();
        assertThat(probe.probes).isEqualTo(1);
    }

    @Test
    void silenceIsAskedAboutAgainTwiceAsLateEachTimeUntilTheServersAnswer() throws Exception {
        LearnedGeneration learned = new LearnedGeneration();
        Script probe = new Script(SILENT, SILENT, NEW);

        assertThat(learned.get(0, probe).generation).isEqualTo(ServerGeneration.V3_5);
        assertThat(learned.holdsFor()).isEqualTo(LearnedGeneration.FIRST_RECHECK);
        assertThat(learned.get(29 * S, probe).generation).isEqualTo(ServerGeneration.V3_5);
        assertThat(probe.probes).as("not due before 30 s").isEqualTo(1);

        assertThat(learned.get(30 * S, probe).news).as("same generation: nothing to log").isNull();
        assertThat(probe.probes).isEqualTo(2);
        assertThat(learned.holdsFor()).isEqualTo(LearnedGeneration.FIRST_RECHECK.multipliedBy(2));
        learned.get(89 * S, probe);
        assertThat(probe.probes).as("then due 60 s later").isEqualTo(2);

        LearnedGeneration.Learned upgraded = learned.get(90 * S, probe);
        assertThat(upgraded.generation).isEqualTo(ServerGeneration.V3_6_OR_LATER);
        assertThat(upgraded.news).isEqualTo(NEW);
        learned.get(100_000 * S, probe);
        assertThat(probe.probes).as("settled").isEqualTo(3);
    }

    @Test
    void theWaitStopsGrowingAtItsCap() throws Exception {
        LearnedGeneration learned = new LearnedGeneration();
        Script probe = new Script(SILENT, SILENT, SILENT, SILENT, SILENT, SILENT, SILENT, SILENT, SILENT);
        long now = 0;
        learned.get(now, probe);
        for (int i = 0; i < 8; i++) {
            now += learned.holdsFor().toNanos();
            learned.get(now, probe);
        }
        assertThat(learned.holdsFor()).isEqualTo(LearnedGeneration.LAST_RECHECK);
        assertThat(probe.probes).isEqualTo(9);
    }

    @Test
    void aFirstProbeThatFailsFailsTheCallerAndALaterOneKeepsWhatIsKnown() throws Exception {
        LearnedGeneration learned = new LearnedGeneration();
        Script probe = new Script(new IOException("no connection"), SILENT, new IOException("lost"), NEW);

        assertThatThrownBy(() -> learned.get(0, probe)).hasMessage("no connection");
        assertThat(learned.get(1 * S, probe).generation).as("asked again at once").isEqualTo(ServerGeneration.V3_5);
        assertThat(learned.get(31 * S, probe).generation).as("the failed re-ask keeps 3.5").isEqualTo(ServerGeneration.V3_5);
        assertThat(learned.get(91 * S, probe).generation).isEqualTo(ServerGeneration.V3_6_OR_LATER);
    }
}
