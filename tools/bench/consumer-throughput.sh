#!/usr/bin/env bash
# Records/s through ZkGroupConsumer vs a raw KafkaConsumer in assign() mode, one run, alternating, on one Kafka 3.9
# broker (ZooKeeper mode) in the benchmark's own JVM and a loopback ZooKeeper.
# Usage: tools/bench/consumer-throughput.sh [--records N] [--partitions N] [--size BYTES] [--rounds N] [--warmup N]
#                                     [--max-poll-records N] [--raw-defaults 0|1] [--max-uncommitted-records N]
# The raw consumer gets exactly the properties ZkGroupConsumer gives the consumer it wraps; --raw-defaults 1 gives it
# kafka-clients' defaults instead (fetch.max.wait.ms 500 against the 100 ms translated from 0.8), as before 2026-12-01.
# Set MVN_OPTS="-o" to build offline. Newest results: docs/benchmarks.md, "ZkGroupConsumer throughput".
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

mvn -B -q ${MVN_OPTS:-} -DskipTests package -pl :bench -am

exec java -Xms1g -Xmx1g -XX:+UseSerialGC \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -cp "tools/bench/target/classes:$(cat tools/bench/target/bench-classpath.txt)" \
    io.zkgroups.bench.ConsumerThroughputBench "$@"
