#!/usr/bin/env bash
# CPU cost of one member's assignment computation (its own share, assignTo), interpreted and with C1, one JVM each.
# Usage: tools/bench/assignment-cost.sh [--members 10] [--partitions 100] [--strategy range] [--rounds 10] [--calls 50]
# Set MVN_OPTS="-o" to build offline. Newest results: docs/benchmarks.md, "Assignment cost".
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q ${MVN_OPTS:-} -DskipTests package -pl :bench -am
CP="tools/bench/target/classes:$(cat tools/bench/target/bench-classpath.txt)"
case " $* " in # the usage once, not once per JIT mode
  *" --help "* | *" -h "*) exec java -cp "$CP" io.zkgroups.bench.AssignmentCostBench "$@" ;;
esac
for mode in -Xint -XX:TieredStopAtLevel=1; do
  java "$mode" -XX:+UseSerialGC -cp "$CP" io.zkgroups.bench.AssignmentCostBench "$@"
done
