#!/usr/bin/env bash
# One restart by session hand-over with the successor started first, in fresh JVMs: the successor's launch → ready
# (waiting for the ticket) and its CPU by then, SIGTERM of its predecessor → its first record and its CPU after the
# ticket; a broker (ZooKeeper mode) and a loopback ZooKeeper in the benchmark's JVM. A rolling bounce on two cores
# waits for these starts. Usage: tools/bench/successor-start.sh [--reps N] [--partitions N] [--baseline REBALANCER_JAR]
# Set MVN_OPTS="-o" to build offline. What each figure measures: SuccessorStartBench's javadoc. Its results are not kept
# in docs/benchmarks.md: run it to get them.
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q ${MVN_OPTS:-} -DskipTests package -pl :bench -am
exec java -Xmx512m -XX:+UseSerialGC -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  -cp "tools/bench/target/classes:$(cat tools/bench/target/bench-classpath.txt)" io.zkgroups.bench.SuccessorStartBench "$@"
