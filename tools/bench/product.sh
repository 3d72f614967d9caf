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
# Report: stdout and tools/bench/target/product.md. Newest results: docs/benchmarks.md, "Product, side by side with
# 0.8.2.2".
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q ${MVN_OPTS:-} -DskipTests package -pl :bench,:legacy-driver -am
source tools/bench/consumer-classpaths.sh
rm -rf tools/bench/target/product-logs
exec java -Xmx1g -XX:+UseSerialGC -cp "$BENCH_CP" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  io.zkgroups.bench.ProductBench --consumer-classpath "$CONSUMER_CP" --legacy-classpath "$LEGACY_CP" "$@"
