#!/usr/bin/env bash
# Rolling bounce under load (docs/benchmarks.md, "Rolling bounce under load, 10 × 100"): the chaos suite's cluster
# (3 ZooKeeper servers, a Kafka broker, a producer, one JVM per member), every member restarted in turn (SIGTERM, exit,
# next process, `zkgroups health --wait`), then the figures: backlog-without-delivery partition-seconds, ownership
# moves, bounce time, and the chaos suite's invariants. One run is one configuration:
#
#   tools/bench/bounce.sh --impl legacy                     # 10 real kafka 0.8.2.2 consumers
#   tools/bench/bounce.sh --impl ours --strategy range      # 10 ZkGroupConsumer members (also --strategy sticky)
#   tools/bench/bounce.sh --impl ours --handover            # restarts by session hand-over (docs/restarts.md)
#   tools/bench/bounce.sh --impl ours --handover --prestart # each successor started first, waiting for the ticket
#   tools/bench/bounce.sh --impl ours --handover --prestart 2   # ... and the next slot's successor started meanwhile
#   tools/bench/bounce.sh --impl mixed [--handover [--prestart]]   # 9 zkgroups members and one 0.8.2.2 consumer
#   tools/bench/bounce.sh --impl ours --handover --prestart 2 --class-data   # every member JVM maps a class-data archive
#                                                     # of its kind, written by a training member first (any --impl)
#   tools/bench/bounce.sh --analyze tools/chaos/target/bounce-runs/<run>
#
# Exit 0: a valid run; 1: invalid (a gate failed or an invariant was violated: see report.txt); 2: bad usage.
# Builds like tools/bench/chaos.sh (MVN_OPTS="-o" to build offline) and runs a copy of what it built.
set -euo pipefail
CHAOS_MAIN=io.zkgroups.chaos.bounce.BounceMain exec "$(dirname "$0")/chaos.sh" "$@"
