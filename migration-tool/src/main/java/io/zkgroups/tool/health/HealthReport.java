package io.zkgroups.tool.health;

import io.zkgroups.registry.store.Unreadable;
import io.zkgroups.tool.ExitCode;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The verdict of {@link HealthCheck}: healthy when there is no finding. {@link #exitCode()} is the code of
 * the first failed condition in {@link HealthCondition} order.
 *
 * @param storeStatus what the store check concluded, in words
 * @param unreadable  every znode of the group that could not be read (the {@code unreadable} condition's evidence)
 */
public record HealthReport(String group, String strategy, int members, int partitions, int owned,
                           List<Finding> findings, String storeStatus, List<Unreadable> unreadable) {

    /** One failed condition, with the evidence. */
    public record Finding(HealthCondition condition, String message) {
    }

    public HealthReport {
        Objects.requireNonNull(group, "group");
        findings = findings.stream().sorted(Comparator.comparing(Finding::condition)).toList();
        unreadable = List.copyOf(unreadable);
    }

    /** This report with {@code more} findings added. */
    public HealthReport withFindings(List<Finding> more) {
        List<Finding> all = new java.util.ArrayList<>(findings);
        all.addAll(more);
        return new HealthReport(group, strategy, members, partitions, owned, all, storeStatus, unreadable);
    }

    /** This report with {@code detail} added to the message of each finding of {@code condition}. */
    public HealthReport withDetail(HealthCondition condition, String detail) {
        List<Finding> all = findings.stream()
                .map(f -> f.condition() == condition ? new Finding(condition, f.message() + "; " + detail) : f).toList();
        return new HealthReport(group, strategy, members, partitions, owned, all, storeStatus, unreadable);
    }

    public boolean healthy() {
        return findings.isEmpty();
    }

    public ExitCode exitCode() {
        return healthy() ? ExitCode.OK : findings.get(0).condition().exitCode();
    }

    public boolean has(HealthCondition condition) {
        return findings.stream().anyMatch(f -> f.condition() == condition);
    }
}
