package io.zkgroups.tool.health;

import io.zkgroups.registry.ZkLayout;
import io.zkgroups.registry.model.TopicAndPartition;
import io.zkgroups.rebalancer.assign.PartitionAssignor;
import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.group.GroupReader;
import io.zkgroups.tool.group.GroupView;
import io.zkgroups.tool.group.KafkaCoordination;
import io.zkgroups.tool.group.StrategyChoice;
import io.zkgroups.tool.io.Clients;
import io.zkgroups.tool.io.KafkaGroups;
import io.zkgroups.tool.reset.PartitionFacts;
import io.zkgroups.tool.reset.ResetPlanner;
import org.apache.kafka.clients.admin.OffsetSpec;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * {@code health}: evaluates {@link HealthCheck} on a fresh read of the group; with a wait, re-evaluates on every
 * ZooKeeper change under the group (members, owners, offsets) and of its subscribed topics until the group is
 * healthy or the time is up. A settle then waits for members, owners and topics (not offsets) to stay still, within
 * the wait. A group whose decision znode says {@code kafka} is judged by {@link KafkaGroupHealth} instead (Kafka's
 * group and the fence owner znodes). Kafka has no watches: while the only failure is the store check, or Kafka did not answer,
 * Kafka (and the members' published alarms) is re-read every {@link #KAFKA_RECHECK}. With {@code --max-stall}, {@link StallCheck} looks at the progress of
 * every partition with an offset; offsets read from Kafka are watched for that long before they are judged.
 */
public final class HealthService {

    static final Duration KAFKA_RECHECK = Duration.ofSeconds(2);

    /** What to check. {@code maxStall}: null for no stall check. */
    public record Request(String group, String strategy, Integer expectMembers, boolean storeCheck, long tolerance,
                          Duration staleAfter, Duration waitFor, Duration settle, Duration maxStall) {
    }

    /**
     * The last evaluation, and how the group looked then. {@code kafkaProblem}: why the Kafka half (store check, stall
     * check) could not be judged; null when Kafka answered or was not needed. {@code coordinator}: which coordinator
     * holds the group, and where, in words.
     */
    public record Result(HealthReport report, String phase, String phaseEvidence, String strategyReason, int evaluations,
                         long elapsedMillis, String kafkaProblem, String coordinator, List<String> notices) {

        public Result {
            notices = List.copyOf(notices);
        }

        /** The report's exit code; a healthy ZooKeeper half whose Kafka half is unknown is {@link ExitCode#KAFKA_PARTIAL}. */
        public ExitCode exitCode() {
            return report.healthy() && kafkaProblem != null ? ExitCode.KAFKA_PARTIAL : report.exitCode();
        }
    }

    /**
     * One look of a wait for health that did not find it healthy, as {@code --progress} prints it: the exit code the
     * command would end with if it ended now, the condition's label and why.
     */
    public record Progress(ExitCode exitCode, String condition, String message) {

        static Progress of(HealthReport report) {
            HealthReport.Finding first = report.findings().get(0);
            return new Progress(report.exitCode(), first.condition().label(), first.message());
        }
    }

    private final Clients clients;

    public HealthService(Clients clients) {
        this.clients = clients;
    }

    /** @param onUnhealthy sees every look that did not find the group healthy (for progress while waiting) */
    public Result check(Request request, Consumer<Progress> onUnhealthy) {
        GroupReader reader = new GroupReader(clients, request.staleAfter(), Clock.systemUTC());
        StallCheck stalls = request.maxStall() == null ? null : new StallCheck(request.maxStall());
        if (stalls != null) {
            clients.requireKafka("health --max-stall (it compares offsets with the log end)");
        }
        // Committed offsets change all the time in a live group: they wake a wait for health, never restart a settle.
        String offsets = ZkLayout.root().offsets(request.group());
        Signal signal = new Signal(path -> path.equals(offsets) || path.startsWith(offsets + "/"));
        boolean waiting = !request.waitFor().isZero();
        long start = System.nanoTime();
        long deadline = start + request.waitFor().toNanos();
        int evaluations = 0;
        Set<String> seenMembers = new TreeSet<>();
        try {
            while (true) {
                long seen = signal.version();
                long seenShape = signal.shapeVersion();
                GroupView view = reader.read(request.group(), waiting ? signal : null, request.storeCheck() || stalls != null);
                if (!view.existsInZk() && !waiting) {
                    throw new CliException(ExitCode.NOT_FOUND, "group " + request.group() + " not found: no /consumers/"
                            + request.group() + " in ZooKeeper");
                }
                StrategyChoice choice = StrategyChoice.choose(request.strategy(), view.members().entries());
                PartitionAssignor assignor = PartitionAssignor.forStrategy(choice.strategy());
                Optional<KafkaCoordination> onKafka;
                try {
                    onKafka = view.existsInZk() ? KafkaCoordination.read(clients, request.group()) : Optional.empty();
                } catch (CliException e) {
                    // a group on Kafka's coordinator is judged by Kafka alone: while waiting, wait for Kafka too
                    if (!waiting || !e.exitCode().leavesZooKeeperHalf() || System.nanoTime() >= deadline) {
                        throw e;
                    }
                    // what the command ends with if Kafka stays silent: its own exit code, not a health condition
                    onUnhealthy.accept(new Progress(e.exitCode(), "kafka-unreadable",
                            "Kafka's group cannot be read: " + e.getMessage()));
                    signal.awaitChange(seen, Math.min(deadline - System.nanoTime(), KAFKA_RECHECK.toNanos()));
                    continue;
                }
                HealthReport report = onKafka.isPresent()
                        ? KafkaGroupHealth.evaluate(onKafka.get(), view.members(), view.owners().entries(),
                                view.partitionCounts(), request.expectMembers())
                        : HealthCheck.evaluate(GroupAssessment.input(view, assignor, request.expectMembers(),
                                request.storeCheck() ? GroupAssessment.stores(view, request.tolerance()) : null));
                String coordinator = onKafka.map(KafkaGroupHealth::coordinator)
                        .orElse("zookeeper (" + ZkLayout.root().group(request.group()) + ")");
                report = HealthCheck.withMemberAlarms(report, view.registeredMembersAlarms());
                report = nameMissing(report, view, seenMembers);
                String kafkaProblem = view.kafkaProblem();
                Optional<Instant> judgeableAt = Optional.empty();
                if (stalls != null && kafkaProblem == null) {
                    try {
                        StallCheck.Result stalled = stalls.evaluate(progress(view), view.readAt());
                        judgeableAt = stalled.judgeableAt();
                        if (!stalled.stalled().isEmpty()) {
                            report = report.withFindings(List.of(new HealthReport.Finding(HealthCondition.STALLED,
                                    stalled.stalled().size() + " partitions with backlog have not advanced for "
                                            + request.maxStall().toSeconds() + " s: " + HealthCheck.shortList(stalled.stalled()))));
                        }
                    } catch (CliException e) {
                        kafkaProblem = GroupReader.partial(e);
                    }
                }
                evaluations++;
                if (!report.healthy()) {
                    onUnhealthy.accept(Progress.of(report));
                }
                Result result = new Result(report, view.phase().phase().label(), view.phase().evidence(),
                        onKafka.isPresent() ? "Kafka's group assigns the partitions" : choice.reason(),
                        evaluations, Duration.ofNanos(System.nanoTime() - start).toMillis(), kafkaProblem, coordinator,
                        HealthCheck.restoredRewinds(view.registeredMembersAlarms()));
                long now = System.nanoTime();
                boolean complete = kafkaProblem == null && judgeableAt.isEmpty();
                if (report.healthy() && complete) {
                    if (request.settle().isZero() || !signal.awaitShapeChange(seenShape, request.settle().toNanos())) {
                        return result;
                    }
                    if (System.nanoTime() >= deadline) {
                        return unsettled(result, request.settle(), start);
                    }
                    continue; // members, owners or topics moved while settling: look again
                }
                long waitNanos;
                if (judgeableAt.isPresent() && report.healthy()) {
                    // offsets read from Kafka: the check samples them, even without --wait
                    waitNanos = Math.max(0, Duration.between(view.readAt(), judgeableAt.get()).toNanos());
                    if (waiting) {
                        if (now >= deadline) {
                            return result;
                        }
                        waitNanos = Math.min(waitNanos, deadline - now);
                    }
                } else {
                    if (!waiting || now >= deadline) {
                        return result;
                    }
                    waitNanos = deadline - now;
                    // Kafka has no watches, and members' alarms are not watched: look again every few seconds
                    if (report.has(HealthCondition.STORES) || report.has(HealthCondition.MEMBER_ALARMS)
                            || kafkaProblem != null || onKafka.isPresent()) {
                        waitNanos = Math.min(waitNanos, KAFKA_RECHECK.toNanos());
                    }
                }
                signal.awaitChange(seen, waitNanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCode.INTERNAL, "interrupted while waiting for group " + request.group(), e);
        }
    }

    /**
     * With too few members, names those registered at an earlier evaluation of this run and gone now: what a bounce
     * script is waiting for (a restarted member may come back under a new consumer id). Adds this evaluation's members
     * to {@code seen}.
     */
    static HealthReport nameMissing(HealthReport report, GroupView view, Set<String> seen) {
        Set<String> now = new TreeSet<>();
        view.members().entries().forEach(m -> now.add(m.id().value()));
        Set<String> gone = new TreeSet<>(seen);
        gone.removeAll(now);
        seen.addAll(now);
        if (gone.isEmpty() || !report.has(HealthCondition.MEMBERS)) {
            return report;
        }
        return report.withDetail(HealthCondition.MEMBERS, "registered earlier in this check and gone now: "
                + HealthCheck.shortList(List.copyOf(gone)) + " (a restarted member may come back under a new id)");
    }

    /** A healthy evaluation whose group changed again within the settle time, when the wait is over. */
    private static Result unsettled(Result healthy, Duration settle, long start) {
        HealthReport report = healthy.report().withFindings(List.of(new HealthReport.Finding(HealthCondition.ASSIGNMENT,
                "not settled: the group's members, owners or topics changed within " + settle.toMillis()
                        + " ms (--settle) of its last healthy evaluation, until the wait was over")));
        return new Result(report, healthy.phase(), healthy.phaseEvidence(), healthy.strategyReason(), healthy.evaluations(),
                Duration.ofNanos(System.nanoTime() - start).toMillis(), healthy.kafkaProblem(), healthy.coordinator(),
                healthy.notices());
    }

    /** Every partition of an existing topic with an offset the group reads: that offset, the log end, its mtime. */
    private Map<TopicAndPartition, StallCheck.Progress> progress(GroupView view) {
        Set<TopicAndPartition> withOffset = new TreeSet<>(view.zk().offsets().keySet());
        if (view.kafka() != null) {
            withOffset.addAll(view.kafka().keySet());
        }
        withOffset.removeIf(tp -> tp.partition() >= view.partitionCounts().getOrDefault(tp.topic(), 0));
        KafkaGroups kafka = clients.requireKafka("health --max-stall");
        Map<TopicAndPartition, Long> logEnd = kafka.logOffsets(withOffset, OffsetSpec.latest(), "log end");
        Map<TopicAndPartition, StallCheck.Progress> progress = new TreeMap<>();
        for (TopicAndPartition tp : withOffset) {
            Long zk = view.zk().offsets().get(tp);
            Long offset = ResetPlanner.currentOffset(new PartitionFacts(tp, zk, view.kafka() == null ? null : view.kafka().get(tp),
                    null, null, null), view.phase().phase());
            Long end = logEnd.get(tp);
            if (offset != null && end != null) {
                Instant changedAt = offset.equals(zk) ? view.zk().mtimes().get(tp) : null;
                progress.put(tp, new StallCheck.Progress(offset, end, changedAt));
            }
        }
        return progress;
    }
}
