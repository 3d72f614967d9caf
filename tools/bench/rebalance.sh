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
# ZooKeeper requests are counted by the server (ServerRequests). What each figure measures: docs/benchmarks.md.
# Set MVN_OPTS="-o" to build offline. Child logs: tools/bench/target/rebalance-logs/. Results go to docs/benchmarks.md.
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
