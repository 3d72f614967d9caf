package io.zkgroups.bench;

import io.zkgroups.rebalancer.assign.PartitionAssignor;
import picocli.CommandLine.Option;

/**
 * The assignment strategy, and 0.8.2.2's retry settings and classpath: the options {@link RebalanceBench} and
 * {@link ScaleBench} share (a picocli mixin).
 */
final class GroupProtocolOptions {

    @Option(names = "--strategy", converter = BenchOptionTypes.StrategyConverter.class,
            description = "range, roundrobin or sticky (default: ${DEFAULT-VALUE}).")
    String strategy = PartitionAssignor.RANGE;

    @Option(names = "--legacy-backoff-ms", description = "0.8.2.2's rebalance.backoff.ms (default: ${DEFAULT-VALUE}).")
    long legacyBackoffMs = 2_000;

    @Option(names = "--legacy-retries", description = "0.8.2.2's rebalance.max.retries (default: ${DEFAULT-VALUE}).")
    int legacyRetries = 4;

    @Option(names = "--legacy-classpath", paramLabel = "CP",
            description = "legacy-driver and kafka_2.10 0.8.2.2 (the bench scripts pass it with --impl legacy).")
    String legacyClasspath;
}
