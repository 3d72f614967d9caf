package io.zkgroups.tool.health;

import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.group.GroupReader;
import io.zkgroups.tool.group.GroupView;
import io.zkgroups.tool.group.StrategyChoice;
import io.zkgroups.tool.io.Clients;

import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * {@code health}: evaluates {@link HealthCheck} on a fresh read of the group; with a wait, re-evaluates on every
 * ZooKeeper change under the group (members, owners, offsets) and of its subscribed topics until the group is
 * healthy or the time is up. Kafka has no watches: while the only failure is the store check, Kafka is re-read
 * every {@link #KAFKA_RECHECK}.
 */
public final class HealthService {

    static final Duration KAFKA_RECHECK = Duration.ofSeconds(2);

    /** What to check. */
    public record Request(String group, String strategy, Integer expectMembers, boolean storeCheck, long tolerance,
                          Duration staleAfter, Duration waitFor, Duration settle) {
    }

    /** The last evaluation, and how the group looked then. */
    public record Result(HealthReport report, String phase, String phaseEvidence, String strategyReason, int evaluations,
                         long elapsedMillis) {
    }

    private final Clients clients;

    public HealthService(Clients clients) {
        this.clients = clients;
    }

    /** @param onEvaluation sees every evaluation (for progress while waiting) */
    public Result check(Request request, Consumer<HealthReport> onEvaluation) {
        GroupReader reader = new GroupReader(clients, request.staleAfter(), Clock.systemUTC());
        Signal signal = new Signal();
        boolean waiting = !request.waitFor().isZero();
        long start = System.nanoTime();
        long deadline = start + request.waitFor().toNanos();
        int evaluations = 0;
        try {
            while (true) {
                long seen = signal.version();
                GroupView view = reader.read(request.group(), waiting ? signal : null, request.storeCheck());
                if (!view.existsInZk() && !waiting) {
                    throw new CliException(ExitCode.NOT_FOUND, "group " + request.group() + " not found: no /consumers/"
                            + request.group() + " in ZooKeeper");
                }
                StrategyChoice choice = StrategyChoice.choose(request.strategy(), view.members().entries());
                PartitionAssignor assignor = PartitionAssignor.forStrategy(choice.strategy());
                HealthReport report = HealthCheck.evaluate(GroupAssessment.input(view, assignor, request.expectMembers(),
                        request.storeCheck() ? GroupAssessment.stores(view, request.tolerance()) : null));
                evaluations++;
                onEvaluation.accept(report);
                Result result = new Result(report, view.phase().phase().label(), view.phase().evidence(), choice.reason(),
                        evaluations, Duration.ofNanos(System.nanoTime() - start).toMillis());
                long now = System.nanoTime();
                if (report.healthy()) {
                    if (request.settle().isZero() || !signal.awaitChange(seen, request.settle().toNanos())) {
                        return result;
                    }
                    continue; // something moved while settling: look again
                }
                if (!waiting || now >= deadline) {
                    return result;
                }
                long waitNanos = deadline - now;
                if (report.has(HealthCondition.STORES)) {
                    waitNanos = Math.min(waitNanos, KAFKA_RECHECK.toNanos());
                }
                signal.awaitChange(seen, waitNanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCode.INTERNAL, "interrupted while waiting for group " + request.group(), e);
        }
    }
}
