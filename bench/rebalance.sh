#!/usr/bin/env bash
# Rebalance latency benchmark (issue 3): N members x P partitions, each member in its own JVM, on a loopback
# ZooKeeper started by the coordinator. Prints a markdown table (median / p90 / max per scenario).
#
#   bench/rebalance.sh                                  # zkgroups members, 4x16 and 10x100
#   bench/rebalance.sh --impl ours,legacy               # also real kafka_2.10:0.8.2.2 consumers (join, leave, burst)
#   bench/rebalance.sh --sizes 4x16 --reps 3 --kill-reps 1 --burst-reps 1   # a quick look
#
# Options (defaults): --sizes 4x16,10x100 --impl ours --reps 10 --kill-reps 5 --burst-reps 5 --session-ms 2000
#   --debounce-ms 5 --warmup-rounds 150 --strategy range --legacy-reps 3 --legacy-burst-reps 3 --legacy-session-ms 6000
#   --legacy-backoff-ms 2000 --legacy-retries 4 (0.8.2.2's defaults)
# Every member JVM first runs --warmup-rounds two-member rebalances, so that what is measured is JIT-compiled code
# (with 10 rounds three quarters of the members' CPU samples were interpreted frames).
# Set MVN_OPTS="-o" to build offline. Child logs: bench/target/rebalance-logs/. Results go to docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q ${MVN_OPTS:-} -Pbench -DskipTests package -pl bench -am
LEGACY_CP=""
if [[ " $* " == *legacy* ]]; then
  mvn -B -q ${MVN_OPTS:-} -pl legacy-driver package
  LEGACY_CP="legacy-driver/target/classes:$(cat legacy-driver/target/legacy-classpath.txt)"
fi
CP="bench/target/classes:$(cat bench/target/bench-classpath.txt)"
rm -rf bench/target/rebalance-logs
exec java -Xmx512m -XX:+UseSerialGC -cp "$CP" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  io.zkgroups.bench.RebalanceBench ${LEGACY_CP:+--legacy-classpath "$LEGACY_CP"} "$@"
