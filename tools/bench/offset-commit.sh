#!/usr/bin/env bash
# OffsetRegistry.commit vs plain Curator multi() batches (the ceiling), one run, loopback ZooKeeper.
# Usage: tools/bench/offset-commit.sh [--topics N] [--partitions N] [--rounds N] [--warmup N] [--batch N]
# Set MVN_OPTS="-o" to build offline. What each figure measures: OffsetCommitBench's javadoc. Its results are not kept
# in docs/benchmarks.md: run it to get them.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

mvn -B -q ${MVN_OPTS:-} -DskipTests package -pl :bench -am

exec java -Xms1g -Xmx1g -XX:+UseSerialGC \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -cp "tools/bench/target/classes:$(cat tools/bench/target/bench-classpath.txt)" \
    io.zkgroups.bench.OffsetCommitBench "$@"
