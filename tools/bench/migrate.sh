#!/usr/bin/env bash
# zkgroups migrate execute / verify for 1,000 groups x 50 partitions (ZooKeeper -> Kafka) next to the raw
# Admin-API ceiling, one run, loopback ZooKeeper + in-process Kafka 3.9 broker.
# Usage: tools/bench/migrate.sh [--groups N] [--partitions N] [--parallelism N] [--batch-size N]
# Set MVN_OPTS="-o" to build offline. What each figure measures: MigrateBench's javadoc. Its results are not kept
# in docs/benchmarks.md: run it to get them.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

mvn -B -q ${MVN_OPTS:-} -DskipTests package -pl :bench -am

exec java -Xms1g -Xmx1g -XX:+UseSerialGC \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -Dorg.slf4j.simpleLogger.log.org.apache.kafka=error -Dorg.slf4j.simpleLogger.log.kafka=error \
    -Dorg.slf4j.simpleLogger.log.org.apache.zookeeper=error -Dorg.slf4j.simpleLogger.log.state.change.logger=error \
    -cp "tools/bench/target/classes:$(cat tools/bench/target/bench-classpath.txt)" \
    io.zkgroups.bench.MigrateBench "$@"
