#!/usr/bin/env bash
# Rebalance latency benchmark: N members x P partitions, each member in its own JVM, on a loopback ZooKeeper and a
# real Kafka broker (ZooKeeper mode) started by the coordinator. Prints a markdown table (median / p90 / max per
# scenario) and the zkgroups / 0.8.2.2 ratios of the medians.
#
#   tools/bench/rebalance.sh --impl ours,legacy                # cold (the primary figures), zkgroups and real 0.8.2.2
#   tools/bench/rebalance.sh --impl ours,legacy --modes cold,warm   # and the warm-up protocol beside
#   tools/bench/rebalance.sh --sizes 4x16 --cold-reps 2 --cold-burst-reps 1   # a quick look
#
# Options (defaults): --sizes 4x16,10x100 --impl ours --modes cold --cold-reps 5 --cold-burst-reps 3
#   --session-ms 2000 --debounce-ms 5 --strategy range --legacy-session-ms (= --session-ms)
#   --legacy-backoff-ms 2000 --legacy-retries 4 (0.8.2.2's defaults)
#   warm mode only: --reps 10 --kill-reps 5 --burst-reps 5 --warmup-rounds 150 --legacy-reps 3 --legacy-burst-reps 3
# Cold: every member is a fresh JVM that joins as soon as it is connected; each join/leave/kill repetition builds a
# new group (see ColdRounds). Warm: every member JVM first runs --warmup-rounds two-member rebalances.
#
# What the figures mean. A component benchmark: bare ZkGroupMembers (RebalanceMemberMain: no fetching, no offsets, no
# poll loop; range, one stream, -Xmx96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1) and 0.8.2.2 consumers without their
# fetcher (LegacyConsumerMain, -Xmx128m, the same GC and compiler options), sessions of --session-ms, on a loopback
# ZooKeeper server (tick 50 ms) and a Kafka 3.9 broker in ZooKeeper mode in the benchmark's JVM.
#   Stable: zkgroups, every live member's latest STATE line is STABLE with exactly its partitions of the assignor's
#     result for the live members (the time is the latest of those lines), then checked against the owner znodes;
#     0.8.2.2, which reports nothing, the benchmark's watched listing of the owner znodes equals that assignment.
#   Scenarios, each timed from the change to stable. Cold: join of one fresh process into N-1 that settled (from its
#     registration seen; zkgroups also from its start()), graceful leave of the oldest (from its registration seen
#     gone; zkgroups also from close()), kill -9 of the next (from the kill: about the session timeout), burst of N
#     fresh processes into a new group (from the first and from the last registration seen). Warm: the same changes
#     among JVMs warmed up first; zkgroups timed from start(), close(), the kill and the first of N start()s,
#     0.8.2.2 (join, leave, burst) from registrations seen.
#   n, median / p90 / max ms: over the repetitions; target: the goal, where one is set.
#   ZK requests: the server's PacketsReceived over the window, less the benchmark's own session (ServerRequests);
#     pings and the ownership lease's syncs count. ZK RTT: a tiny request's round trip sampled every 20 ms (on a
#     loaded machine a latency is about the round trips on its critical path times this). Members' CPU: summed over
#     the member JVMs; ZK server JVM CPU: the benchmark's JVM, which runs the server. Two cores give 2 ms of CPU per
#     ms: when the two add up to about twice the latency, the scenario is CPU-bound.
#   Ratios: zkgroups / 0.8.2.2 of the medians, per scenario both ran. Ownership moves (warm, zkgroups): over the
#     join-then-leave series, the partitions whose owner znode names another thread at consecutive stable points.
# docs/benchmarks.md keeps only the ownership moves of a warm run ("Ownership moves, range vs sticky"); the latencies
# and requests are not kept there: run it to get them.
# Set MVN_OPTS="-o" to build offline. Child logs: tools/bench/target/rebalance-logs/.
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q ${MVN_OPTS:-} -DskipTests package -pl :bench -am
LEGACY_CP=""
if [[ " $* " == *legacy* ]]; then
  mvn -B -q ${MVN_OPTS:-} -DskipTests -pl :legacy-driver -am package
  LEGACY_CP="testing/legacy-driver/target/classes:$(cat testing/legacy-driver/target/legacy-classpath.txt)"
fi
CP="tools/bench/target/classes:$(cat tools/bench/target/bench-classpath.txt)"
rm -rf tools/bench/target/rebalance-logs
exec java -Xmx512m -XX:+UseSerialGC -cp "$CP" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  io.zkgroups.bench.RebalanceBench ${LEGACY_CP:+--legacy-classpath "$LEGACY_CP"} "$@"
