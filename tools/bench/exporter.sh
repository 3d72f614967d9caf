#!/usr/bin/env bash
# One zkgroups exporter scrape of 1,000 groups x 50 partitions (ZooKeeper offsets and Kafka offsets for each),
# loopback ZooKeeper + in-process Kafka 3.9 broker, the exporter (zkgroups exporter) in the same JVM.
# Usage: tools/bench/exporter.sh [--groups N] [--partitions N] [--scrapes N] [--records N]; prints each scrape's
# ZooKeeper and Kafka requests (from the servers' JMX counters).
# Set MVN_OPTS="-o" to build offline. Results go to docs/benchmarks.md with this command line.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

mvn -B -q ${MVN_OPTS:-} -DskipTests package -pl :bench -am

exec java -Xms1g -Xmx1g -XX:+UseSerialGC \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -Dorg.slf4j.simpleLogger.log.org.apache.kafka=error -Dorg.slf4j.simpleLogger.log.kafka=error \
    -Dorg.slf4j.simpleLogger.log.org.apache.zookeeper=error -Dorg.slf4j.simpleLogger.log.state.change.logger=error \
    -cp "tools/bench/target/classes:$(cat tools/bench/target/bench-classpath.txt)" \
    io.zkgroups.bench.ExporterBench "$@"
