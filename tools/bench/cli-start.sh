#!/usr/bin/env bash
# A rolling-bounce gate as a script runs it: `bin/zkgroups health` of the unpacked distribution in fresh JVMs on a
# healthy 10 × 100 group (loopback ZooKeeper), runs without and with a class-data archive (ZKGROUPS_CLASS_DATA)
# alternating. Usage: tools/bench/cli-start.sh [--reps N] [--members M] [--partitions P]
# Set MVN_OPTS="-o" to build offline. Newest results: docs/benchmarks.md, "A gate's fresh JVM".
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q ${MVN_OPTS:-} -DskipTests package -pl :bench,:distribution -am
home_parent="$(mktemp -d "${TMPDIR:-/tmp}/zkgroups-dist.XXXXXX")"
trap 'rm -rf "$home_parent"' EXIT
tar -xzf tools/distribution/target/zkgroups-*.tar.gz -C "$home_parent"
java -Xmx256m -XX:+UseSerialGC -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  -cp "tools/bench/target/classes:$(cat tools/bench/target/bench-classpath.txt)" io.zkgroups.bench.CliStartBench \
  --home "$(echo "$home_parent"/zkgroups-*)" "$@"
