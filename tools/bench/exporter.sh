#!/usr/bin/env bash
# zkgroups exporter scrapes of G groups x P partitions (default 1,000 x 50; ZooKeeper offsets and Kafka offsets for
# each), loopback ZooKeeper + in-process Kafka 3.9 broker, two exporters in the same JVM: --min-interval 0s (every
# scrape reads) and 1h (cached). What each figure measures: ExporterBench's javadoc.
# Usage: tools/bench/exporter.sh [--groups N] [--partitions N] [--scrapes N] [--records N]; prints each scrape's
# ZooKeeper and Kafka requests (from the servers' JMX counters).
# Set MVN_OPTS="-o" to build offline. docs/benchmarks.md keeps a run with --groups 100 --partitions 1000 ("Requests per
# exporter scrape: 100 groups × 1,000 partitions"); the default size's figures are not kept there: run it to get them.
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
