#!/usr/bin/env bash
# Read throughput of the product beside 0.8.2.2, timed from outside: fresh reader processes with the same JVM options
# on a Kafka 3.9 broker in its own JVM. Readers: an ordinary 0.8 program on the real 0.8.2.2 jar (legacy) and
# unchanged on kafka08-bridge (bridge), ZkGroupConsumer in a poll loop (ours), a raw KafkaConsumer with ours' fetch
# settings (raw) or kafka-clients' defaults (raw-defaults).
#
#   tools/bench/throughput.sh                                         # 2,000,000 x 100 B, 16 partitions, 1 reader, 3 reps
#   tools/bench/throughput.sh --shapes 100x16x4,100x128x1 --reps 3     # four readers in one group; 128 partitions
#   tools/bench/throughput.sh --shapes 1000x16x1 --records 500000      # 1 KB records
#   tools/bench/throughput.sh --help                                  # every option
#
# Set MVN_OPTS="-o" to build offline. Reader logs: tools/bench/target/throughput-logs/.
# Report: stdout and tools/bench/target/throughput.md. Newest results: docs/benchmarks.md, "Read throughput, side by
# side with 0.8.2.2".
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q ${MVN_OPTS:-} -DskipTests package -pl :bench,:legacy-driver,:kafka08-bridge -am
source tools/bench/consumer-classpaths.sh
BRIDGE_CP="$PWD/testing/legacy-driver/target/classes:$PWD/kafka08-bridge/target/classes:$(cat kafka08-bridge/target/bridge-classpath.txt):$SLF4J_SIMPLE"
rm -rf tools/bench/target/throughput-logs
exec java -Xmx1g -XX:+UseSerialGC -cp "$BENCH_CP" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  io.zkgroups.bench.ThroughputBench --consumer-classpath "$CONSUMER_CP" --legacy-classpath "$LEGACY_CP" \
  --bridge-classpath "$BRIDGE_CP" "$@"
