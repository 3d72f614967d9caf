package io.zkgroups.tool.cli;

import io.zkgroups.tool.CliException;
import io.zkgroups.tool.ExitCode;
import io.zkgroups.tool.health.HealthReport;
import io.zkgroups.tool.health.HealthService;
import io.zkgroups.tool.health.LagGate;
import io.zkgroups.tool.io.Clients;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code zkgroups health}: an exit code for rolling-bounce scripts. */
@Command(name = "health", sortOptions = false, description = {
        "Exit 0 only when every znode of the group that can stop part of it is readable (registrations, owners, "
                + "offsets of the partitions it owns or must own, subscribed topics), every partition of the subscribed "
                + "topics is owned by a registered member's thread, the owners are exactly what the assignor computes "
                + "for the registered members, and (in the dual-commit phase, unless --no-store-check) ZooKeeper and "
                + "Kafka offsets agree within --store-tolerance.",
        "Otherwise the exit code names the first failed condition: 26 unreadable znode, 20 members, 25 assignor "
                + "refused, 21 unowned partition, 22 owner not a member, 23 assignment differs, 24 stores differ, "
                + "27 a partition with backlog stalled for --max-stall, 28 a partition's lag in seconds over "
                + "--max-lag-seconds (checked once the rest is healthy), 29 a zkgroups member's alarm (partitions it cannot fetch "
                + "or resume).",
        "A rewind another writer made and a member already wrote back is printed as a notice (JSON \"notices\") and "
                + "does not fail the check.",
        "When Kafka does not answer, the ZooKeeper half is judged and printed with a warning; if it is healthy the exit "
                + "code is 11.",
        "--wait blocks until healthy or the time is up, re-checking on ZooKeeper events."})
final class HealthCommand extends AbstractCommand {

    @Option(names = "--group", paramLabel = "G", required = true, description = "The group.")
    String group;

    @Option(names = "--expect-members", paramLabel = "N", description = "Healthy only with exactly N registered members.")
    Integer expectMembers;

    @Option(names = "--wait", paramLabel = "DURATION", defaultValue = "0s", converter = DurationParser.class,
            description = "Wait up to DURATION for the group to become healthy (default: check once).")
    Duration wait;

    @Option(names = "--settle", paramLabel = "DURATION", defaultValue = "0s", converter = DurationParser.class,
            description = "Healthy only after DURATION without any change in the group (default: ${DEFAULT-VALUE}).")
    Duration settle;

    @Option(names = "--strategy", paramLabel = "STRATEGY", completionCandidates = Strategies.Names.class,
            description = "${COMPLETION-CANDIDATES} (default: what every member advertises, else range).")
    String strategy;

    @Option(names = "--store-tolerance", paramLabel = "N", defaultValue = "0",
            description = "Largest |kafka - zookeeper| per partition in the dual-commit phase (default: ${DEFAULT-VALUE}).")
    long tolerance;

    @Option(names = "--no-store-check", description = "Do not compare the stores (e.g. during the rolling bounces).")
    boolean noStoreCheck;

    @Option(names = "--stale-after", paramLabel = "DURATION", defaultValue = "5m", converter = DurationParser.class,
            description = "Phase inference: a ZooKeeper offset older than this is stale (default: ${DEFAULT-VALUE}).")
    Duration staleAfter;

    @Option(names = "--progress", description = "Print each failed evaluation on stderr while waiting.")
    boolean progress;

    @Option(names = "--max-stall", paramLabel = "DURATION", converter = DurationParser.class,
            description = "Unhealthy (27) when a partition with backlog has not advanced for DURATION: by its ZooKeeper "
                    + "offset's mtime; an offset read from Kafka is watched for DURATION (health then takes that long).")
    Duration maxStall;

    @Option(names = "--max-lag-seconds", paramLabel = "SECONDS",
            description = "Unhealthy (28) when the record at some partition's committed offset is older than SECONDS "
                    + "(lag in seconds, as zkgroups lag shows it); with --wait, re-sampled once a second.")
    Double maxLagSeconds;

    @Override
    ExitCode run(Clients clients) {
        Strategies.validate(strategy);
        if (expectMembers != null && expectMembers < 0) {
            throw new CliException(ExitCode.USAGE, "--expect-members must be >= 0");
        }
        if (tolerance < 0) {
            throw new CliException(ExitCode.USAGE, "--store-tolerance must be >= 0");
        }
        if (maxLagSeconds != null && !(maxLagSeconds >= 0)) {
            throw new CliException(ExitCode.USAGE, "--max-lag-seconds must be >= 0");
        }
        if (maxStall != null && (maxStall.isZero() || maxStall.isNegative())) {
            throw new CliException(ExitCode.USAGE, "--max-stall must be positive");
        }
        HealthService.Request request = new HealthService.Request(group, strategy, expectMembers, !noStoreCheck, tolerance,
                staleAfter, wait, settle, maxStall);
        HealthService.Result result = new HealthService(clients).check(request, look -> {
            if (progress) {
                err().println("progress: health " + group + " " + look.exitCode().code() + " " + look.condition() + ": "
                        + look.message());
                err().flush();
            }
        });
        HealthReport r = result.report();
        ExitCode code = result.exitCode();
        LagGate.Result lagGate = null;
        if (maxLagSeconds != null && code == ExitCode.OK) {
            Duration left = wait.minusMillis(result.elapsedMillis());
            lagGate = new LagGate(clients, staleAfter, maxLagSeconds).check(group, left.isNegative() ? Duration.ZERO : left);
            if (!lagGate.passed()) {
                code = ExitCode.HEALTH_LAGGING;
            }
        }
        if (result.kafkaProblem() != null) {
            warn(result.kafkaProblem() + ": only the ZooKeeper half was judged (no store or stall check)");
        }
        if (json()) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("group", group);
            doc.put("healthy", r.healthy() && (lagGate == null || lagGate.passed()));
            doc.put("exitCode", code.code());
            doc.put("kafkaProblem", result.kafkaProblem());
            doc.put("coordinator", result.coordinator());
            doc.put("members", r.members());
            doc.put("expectedMembers", expectMembers);
            doc.put("partitions", r.partitions());
            doc.put("owned", r.owned());
            doc.put("strategy", r.strategy());
            doc.put("strategyReason", result.strategyReason());
            doc.put("phase", result.phase());
            doc.put("phaseEvidence", result.phaseEvidence());
            doc.put("stores", r.storeStatus());
            doc.put("findings", r.findings().stream().map(f -> Map.of("condition", f.condition().label(),
                    "exitCode", f.condition().exitCode().code(), "message", f.message())).toList());
            doc.put("notices", result.notices());
            doc.put("unreadable", r.unreadable().stream().map(u -> Map.of("path", u.path(), "reason", u.reason())).toList());
            if (lagGate != null) {
                doc.put("maxLagSeconds", lagGate.maxLagSeconds());
                doc.put("lagging", lagGate.lagging());
            }
            doc.put("evaluations", result.evaluations());
            doc.put("elapsedMillis", result.elapsedMillis());
            printJson(doc);
        } else {
            out().println("group " + group + ": " + (code == ExitCode.OK ? "HEALTHY" : code == ExitCode.HEALTH_LAGGING
                    ? "UNHEALTHY (exit " + code.code() + ")" : r.healthy()
                    ? "ZOOKEEPER HALF HEALTHY, KAFKA UNKNOWN (exit " + code.code() + ")"
                    : "UNHEALTHY (exit " + code.code() + ")"));
            out().println("  members " + r.members() + (expectMembers == null ? "" : " (expected " + expectMembers + ")")
                    + ", partitions " + r.partitions() + ", owned " + r.owned() + ", strategy " + r.strategy() + " ("
                    + result.strategyReason() + ")");
            out().println("  coordinator " + result.coordinator());
            out().println("  phase " + result.phase() + " (" + result.phaseEvidence() + "); stores: " + r.storeStatus());
            r.findings().forEach(f -> out().println("  " + f.condition().label() + " (" + f.condition().exitCode().code()
                    + "): " + f.message()));
            result.notices().forEach(n -> out().println("  notice, rewind written back: " + n));
            if (lagGate != null) {
                out().println("  max lag " + Seconds.format(lagGate.maxLagSeconds()) + " (limit "
                        + Seconds.format(maxLagSeconds) + ")");
                lagGate.lagging().forEach(l -> out().println("  lagging (28): " + l));
            }
            if (!wait.isZero()) {
                out().println("  after " + result.evaluations() + " checks in " + result.elapsedMillis() + " ms");
            }
        }
        return code;
    }
}
