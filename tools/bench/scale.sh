#!/usr/bin/env bash
# Scaling curve of the group protocol: N members x P partitions, several members per JVM (each its own ZooKeeper
# session), coordination only (nobody fetches, no broker runs: the coordinator writes the broker and topic znodes), on
# one loopback ZooKeeper server in the coordinator's JVM. Per run: burst from the first process start, one join, one leave, one kill -9; with
# the server's request and byte counts, the watches armed and the member JVMs' CPU. Prints a markdown table and
# writes a plot (PNG) of time and requests against members.
#
#   tools/bench/scale.sh                                         # 10x100, 100x1000, 1000x10000; zkgroups and 0.8.2.2; 3 runs
#   tools/bench/scale.sh --impl ours --sizes 1000x10000 --reps 3
#   tools/bench/scale.sh --sizes 10x100 --reps 1 --plot tools/bench/target/scaling-quick.png   # a quick look
#
# Options (defaults): --sizes 10x100,100x1000,1000x10000 --impl ours,legacy --reps 3 --members-per-jvm 50
#   --session-ms 6000 --debounce-ms 0 --strategy range --legacy-backoff-ms 2000 --legacy-retries 4 --wait-s 180
#   --plot tools/bench/target/scaling.png (docs/scaling.png: the docs' plot); --pad-names zero-pads member numbers so
#   that the joiner sorts last (range then moves only the last members instead of nearly all)
# 0.8.2.2 stops being run at larger sizes once a burst of it does not converge within --wait-s.
# Set MVN_OPTS="-o" to build offline. Child logs: tools/bench/target/scale-logs/. Newest results: docs/benchmarks.md,
# "Scaling".
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q ${MVN_OPTS:-} -DskipTests package -pl :bench -am
LEGACY_CP=""
if [[ " $* " != *"--impl"* || " $* " == *legacy* ]]; then
  mvn -B -q ${MVN_OPTS:-} -pl :legacy-driver package
  LEGACY_CP="testing/legacy-driver/target/classes:$(cat testing/legacy-driver/target/legacy-classpath.txt)"
fi
CP="tools/bench/target/classes:$(cat tools/bench/target/bench-classpath.txt)"
rm -rf tools/bench/target/scale-logs
exec java -Xmx2g -XX:+UseSerialGC -Djava.awt.headless=true -cp "$CP" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  io.zkgroups.bench.ScaleBench ${LEGACY_CP:+--legacy-classpath "$LEGACY_CP"} "$@"
