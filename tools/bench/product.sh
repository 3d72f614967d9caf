#!/usr/bin/env bash
# The product side by side: zkgroups consumers (ZkGroupConsumer in a poll loop, default settings) and real 0.8.2.2
# consumers (with their fetcher), fresh JVMs with the same options, a real broker with a steady producer, one
# ZooKeeper server and one observer for both. Per size and repetition: burst, leave (SIGTERM), join, kill -9.
#
#   tools/bench/product.sh                                   # 4x16 and 10x100, 4 repetitions of each phase per kind
#   tools/bench/product.sh --sizes 4x16 --reps 1             # a quick look
#   tools/bench/product.sh --help                            # every option
#
# The zkgroups consumer runs on the rebalancer module's runtime class path (what an application has), plus
# slf4j-simple at WARN. Set MVN_OPTS="-o" to build offline. Member logs: tools/bench/target/product-logs/.
# Report: stdout and tools/bench/target/product.md; results go to docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q ${MVN_OPTS:-} -DskipTests package -pl :bench,:legacy-driver -am
# registry's then rebalancer's runtime class path: the file keeps the last, rebalancer's (with registry's jar)
mvn -B -q ${MVN_OPTS:-} -DskipTests package dependency:build-classpath -pl registry,rebalancer -am \
  -Dmdep.includeScope=runtime -Dmdep.outputFile="$PWD/tools/bench/target/consumer-classpath.txt"
BENCH_CP="tools/bench/target/classes:$(cat tools/bench/target/bench-classpath.txt)"
SLF4J_SIMPLE="$(tr ':' '\n' < tools/bench/target/bench-classpath.txt | grep '/slf4j-simple-' | head -1)"
CONSUMER_CP="$PWD/tools/bench/target/classes:$(ls "$PWD"/rebalancer/target/rebalancer-*.jar | grep -v -- '-sources\|-javadoc\|-tests' | head -1):$(cat tools/bench/target/consumer-classpath.txt):$SLF4J_SIMPLE"
LEGACY_CP="$PWD/testing/legacy-driver/target/classes:$(cat testing/legacy-driver/target/legacy-classpath.txt)"
rm -rf tools/bench/target/product-logs
exec java -Xmx1g -XX:+UseSerialGC -cp "$BENCH_CP" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  io.zkgroups.bench.ProductBench --consumer-classpath "$CONSUMER_CP" --legacy-classpath "$LEGACY_CP" "$@"
