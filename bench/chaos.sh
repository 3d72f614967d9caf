#!/usr/bin/env bash
# Chaos run (docs/chaos.md): a 3-server ZooKeeper ensemble, a Kafka broker, a producer and ZkGroupConsumer members,
# each in its own JVM; seeded faults, each followed by `zkgroups health --wait`; then the invariant monitor.
#
#   bench/chaos.sh --faults 500 --seed 7                 # the long run
#   bench/chaos.sh --faults 20 --fault-set kill-member,pause-member --seed 3
#   bench/chaos.sh --faults 5 --broken-member ignore-loss   # the monitor must fail this run
#   bench/chaos.sh --list-faults
#
# Exit 0: no violation; 1: violations (see report.txt / report.json in the run directory); 2: bad usage.
# Set MVN_OPTS="-o" to build offline; CHAOS_JAVA_OPTS replaces the orchestrator's JVM options.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q ${MVN_OPTS:-} -DskipTests package -pl chaos -am >&2
CP="chaos/target/classes:$(cat chaos/target/chaos-classpath.txt)"
exec java ${CHAOS_JAVA_OPTS:--Xmx768m -XX:+UseSerialGC} -cp "$CP" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  io.zkgroups.chaos.run.ChaosMain "$@"
