#!/usr/bin/env bash
# SIGTERM → exit of a ZkGroupConsumer in a fresh JVM each time, with its commits checked: a broker (ZooKeeper mode) and a
# loopback ZooKeeper in the benchmark's JVM, one member JVM per repetition, records arriving all along.
# Usage: tools/bench/exit.sh [--reps N] [--partitions N] [--mode leave|restart]
# Set MVN_OPTS="-o" to build offline. What each figure measures: ExitLatencyBench's javadoc. Its results are not kept
# in docs/benchmarks.md: run it to get them.
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q ${MVN_OPTS:-} -DskipTests package -pl :bench -am
exec java -Xmx512m -XX:+UseSerialGC -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  -cp "tools/bench/target/classes:$(cat tools/bench/target/bench-classpath.txt)" io.zkgroups.bench.ExitLatencyBench "$@"
