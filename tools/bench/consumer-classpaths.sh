# Sourced by the product benchmarks, from the repository root after building :bench and :legacy-driver: sets the class
# paths their processes run on.
#   BENCH_CP     the benchmark's own JVM
#   CONSUMER_CP  a zkgroups consumer application: the rebalancer module's runtime class path (what an application has),
#                the bench classes (its main), slf4j-simple
#   LEGACY_CP    the 0.8 programs of legacy-driver on the real kafka_2.10 0.8.2.2 jar
# registry's then rebalancer's runtime class path: the file keeps the last, rebalancer's (with registry's jar)
mvn -B -q ${MVN_OPTS:-} -DskipTests package dependency:build-classpath -pl registry,rebalancer -am \
  -DincludeScope=runtime -Dmdep.outputFile="$PWD/tools/bench/target/consumer-classpath.txt"
BENCH_CP="tools/bench/target/classes:$(cat tools/bench/target/bench-classpath.txt)"
SLF4J_SIMPLE="$(tr ':' '\n' < tools/bench/target/bench-classpath.txt | grep '/slf4j-simple-' | head -1)"
CONSUMER_CP="$PWD/tools/bench/target/classes:$(ls "$PWD"/rebalancer/target/rebalancer-*.jar | grep -v -- '-sources\|-javadoc\|-tests' | head -1):$(cat tools/bench/target/consumer-classpath.txt):$SLF4J_SIMPLE"
LEGACY_CP="$PWD/testing/legacy-driver/target/classes:$(cat testing/legacy-driver/target/legacy-classpath.txt)"
