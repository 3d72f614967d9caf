#!/usr/bin/env bash
# Chaos run (docs/chaos.md): a 3-server ZooKeeper ensemble, a Kafka broker, a producer and ZkGroupConsumer members
# (or real 0.8.2.2 consumers), each in its own JVM; seeded faults, each followed by `zkgroups health --wait`; then the
# invariant monitor.
#
#   tools/bench/chaos.sh --faults 500 --seed 7                 # the long run
#   tools/bench/chaos.sh --faults 100 --seed 7 --members 0 --legacy-members 3   # the same faults on 0.8.2.2 consumers
#   tools/bench/chaos.sh --faults 20 --fault-set kill-member,pause-member --seed 3
#   tools/bench/chaos.sh --faults 5 --broken-member ignore-loss   # the monitor must fail this run
#   tools/bench/chaos.sh --list-faults
#
# Exit 0: no violation; 1: violations (see report.txt / report.json in the run directory); 2: bad usage.
# Set MVN_OPTS="-o" to build offline; CHAOS_JAVA_OPTS replaces the orchestrator's JVM options; CHAOS_MAIN the main
# class (tools/bench/bounce.sh runs the rolling-bounce benchmark this way).
# The run uses a copy of what it built (its classes as jars and the repository's own jars), so rebuilding the tree
# during a long run does not change the member JVMs it starts later.
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q ${MVN_OPTS:-} -DskipTests package -pl :chaos,:legacy-driver -am >&2
ROOT="$PWD"
COPY="$(mktemp -d "${TMPDIR:-/tmp}/chaos-classes.XXXXXX")"
# jars, not classes directories: a class-data archive (tools/bench/bounce.sh --class-data) takes jars only
jar --create --file "$COPY/chaos.jar" -C tools/chaos/target/classes .
CP="$COPY/chaos.jar"
n=0
IFS=":" read -r -a ENTRIES < tools/chaos/target/chaos-classpath.txt || true  # no newline at its end
for e in "${ENTRIES[@]}"; do
  if [[ "$e" == "$ROOT"/* ]]; then
    n=$((n + 1))
    cp -r "$e" "$COPY/$n-$(basename "$e")"
    CP="$CP:$COPY/$n-$(basename "$e")"
  else
    CP="$CP:$e"
  fi
done
mkdir -p "$COPY/legacy-driver"
jar --create --file "$COPY/legacy-driver/classes.jar" -C testing/legacy-driver/target/classes .
cp testing/legacy-driver/target/legacy-classpath.txt "$COPY/legacy-driver/"
exec java ${CHAOS_JAVA_OPTS:--Xmx768m -XX:+UseSerialGC} -cp "$CP" \
  -Dchaos.legacy.target="$COPY/legacy-driver" \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  "${CHAOS_MAIN:-io.zkgroups.chaos.run.ChaosMain}" "$@"
