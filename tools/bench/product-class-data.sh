#!/usr/bin/env bash
# The product side by side (tools/bench/product.sh) with and without a class-data archive (AppCDS, docs/restarts.md)
# for each kind of member: a training run of the bench with one member of each kind writes each kind's archive when
# that member exits; then every phase runs four kinds, zkgroups and 0.8.2.2 each plain and mapping its own archive.
# The JVM archives classes from jars only: the bench's classes and legacy-driver's go on the class path as jars.
#
#   tools/bench/product-class-data.sh                          # 4x16 and 10x100, 2 repetitions per kind
#   tools/bench/product-class-data.sh --sizes 4x16 --reps 1    # a quick look
#
# Set MVN_OPTS="-o" to build offline. Archives: tools/bench/target/class-data/. Report: stdout.
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q ${MVN_OPTS:-} -DskipTests package -pl :bench,:legacy-driver -am
source tools/bench/consumer-classpaths.sh
out="$PWD/tools/bench/target/class-data"
rm -rf "$out" && mkdir -p "$out"
bench_jar="$(ls "$PWD"/tools/bench/target/bench-*.jar | grep -v -- '-sources\|-javadoc\|-tests' | head -1)"
(cd testing/legacy-driver/target/classes && jar cf "$out/legacy-driver.jar" .)
consumer_cp="${CONSUMER_CP/$PWD\/tools\/bench\/target\/classes/$bench_jar}"
legacy_cp="${LEGACY_CP/$PWD\/testing\/legacy-driver\/target\/classes/$out/legacy-driver.jar}"
bench() {
  java -Xmx1g -XX:+UseSerialGC -cp "$BENCH_CP" -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    io.zkgroups.bench.ProductBench --consumer-classpath "$consumer_cp" --legacy-classpath "$legacy_cp" "$@"
}
echo "training: one member of each kind writes its kind's archive at exit" >&2
bench --sizes 1x16 --reps 1 --out "$out/training.md" \
  --impl "ours@-XX:ArchiveClassesAtExit=$out/ours.jsa,legacy@-XX:ArchiveClassesAtExit=$out/legacy.jsa" > "$out/training.txt"
for kind in ours legacy; do
  [[ -s "$out/$kind.jsa" ]] || { echo "no archive written for $kind: see $out/training.txt" >&2; exit 1; }
done
args=("$@")
[[ ${#args[@]} -gt 0 ]] || args=(--sizes 4x16,10x100 --reps 2)
bench --impl "ours,ours@-XX:SharedArchiveFile=$out/ours.jsa,legacy,legacy@-XX:SharedArchiveFile=$out/legacy.jsa" \
  "${args[@]}"
