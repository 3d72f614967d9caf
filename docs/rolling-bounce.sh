#!/usr/bin/env bash
# Example: bounce the members of a ZooKeeper consumer group one by one, gated on `zkgroups health`.
#
#   docs/rolling-bounce.sh --group orders-indexer --members 4 \
#       --restart 'ssh {} sudo systemctl restart orders-indexer' host1 host2 host3 host4
#
# The restart command must return only once the old process has exited (`systemctl restart` does; a bare
# `kill` does not): a gate that runs while the old member is still leaving can see the group as it was.
#
# Members that restart by session hand-over (zkgroups.restart.handover.file, docs/restarts.md) keep their partitions
# across the restart and the group does not rebalance. --handover checks that: after each restart the members and
# their partitions must be exactly as before (`zkgroups groups describe --members`); when they are not, the hand-over
# did not happen (the successor started after zkgroups.restart.grace.ms, or the session had ended) and the script says
# so and goes on, gated as usual. To take the successor's JVM start out of the pause, give --start and --stop instead
# of --restart: the successor is started first (with zkgroups.restart.handover.await.ms it waits for the ticket; the
# start command returns once it waits, e.g. once its log says "waiting up to ... for a ticket"), then the old process
# is stopped (the command returns once it has exited) and hands its session over:
#
#   docs/rolling-bounce.sh --group orders-indexer --members 4 --handover \
#       --start 'ssh {} start-successor orders-indexer' --stop 'ssh {} stop-old orders-indexer' host1 host2 host3 host4
#
# Before the first bounce and after each one, the group must be healthy: exactly --members members registered,
# every partition owned, owners exactly as the assignor computes them, no change of members, owners or topics for
# --settle. The store check is off during a bounce (members of both configurations commit differently while the
# bounce is in progress); run `zkgroups health` without --no-store-check and `zkgroups migrate verify` after the last bounce
# (docs/migration-runbook.md).
#
# Exit codes (each outcome also says what happened on stderr, prefixed `rolling-bounce:`):
#   0      every host bounced, group healthy after the last one
#   2      bad arguments to this script
#   3      a restart (or start, stop) command failed (its exit code is in the message); later hosts were not touched
#   4      zkgroups itself failed, so health was not judged: bad zkgroups arguments (its exit 2), ZooKeeper or Kafka
#          unreachable (5, or 11 when Kafka alone did not answer), an internal error (1), or another non-health
#          code (3, 6, 7); its exit code and meaning are in the message, its own error just above it
#   20-29  the health gate failed: the group did not become healthy within --wait; the code is health's (see
#          docs/cli.md: 20 members, 21 unowned partition, 22 foreign owner, 23 rebalance pending, ...)
# Connection settings come from the environment of `zkgroups` (ZKGROUPS_ZOOKEEPER, ZKGROUPS_BOOTSTRAP_SERVER,
# ZKGROUPS_ZK_AUTH) or from --zk-args '...'.
set -euo pipefail

zkgroups="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/bin/zkgroups"
group="" members="" restart="" start="" stop="" handover="" wait="5m" settle="5s" zk_args="" strategy=""

usage() {
  sed -n '2,38p' "$0" | sed 's/^# \{0,1\}//' >&2
  echo "options: --group G --members N (--restart 'CMD with {} for the host' | --start CMD --stop CMD) [--handover]" \
       "[--wait 5m] [--settle 5s] [--strategy range|roundrobin] [--zk-args '--zookeeper zk:2181/kafka ...'] HOST..." >&2
  exit 2
}

while [[ $# -gt 0 ]]; do
  if [[ "$1" == --* && "$1" != --help && "$1" != --handover && $# -lt 2 ]]; then
    echo "rolling-bounce: $1 needs a value" >&2; usage
  fi
  case "$1" in
    --group) group="$2"; shift 2 ;;
    --members) members="$2"; shift 2 ;;
    --restart) restart="$2"; shift 2 ;;
    --start) start="$2"; shift 2 ;;
    --stop) stop="$2"; shift 2 ;;
    --handover) handover=1; shift ;;
    --wait) wait="$2"; shift 2 ;;
    --settle) settle="$2"; shift 2 ;;
    --strategy) strategy="--strategy $2"; shift 2 ;;
    --zk-args) zk_args="$2"; shift 2 ;;
    -h|--help) usage ;;
    --*) echo "rolling-bounce: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
if [[ -z "$group" || ( -z "$restart" && ( -z "$start" || -z "$stop" ) ) || $# -eq 0 ]]; then
  echo "rolling-bounce: --group, --members, --restart (or --start and --stop) and at least one HOST are required" >&2
  usage
fi
if [[ -n "$restart" && ( -n "$start" || -n "$stop" ) ]]; then
  echo "rolling-bounce: give either --restart or --start and --stop, not both" >&2; usage
fi
[[ "$members" =~ ^[1-9][0-9]*$ ]] || { echo "rolling-bounce: --members must be a positive number, got '$members'" >&2; usage; }

zkgroups_error() { # $1: zkgroups exit code -> what it means (docs/cli.md)
  case "$1" in
    1) echo "internal error (rerun the command with --verbose)" ;;
    2) echo "bad zkgroups command line (check --zk-args and --strategy)" ;;
    3) echo "unknown group, topic or partition" ;;
    5) echo "ZooKeeper or Kafka unreachable, timed out, or refused the credentials" ;;
    6) echo "malformed input file (e.g. --zk-tls-config-file)" ;;
    7) echo "znodes that cannot be decoded" ;;
    11) echo "Kafka did not answer" ;;
    *) echo "unexpected exit code" ;;
  esac
}

gate() { # $1: what just happened
  local code=0
  # shellcheck disable=SC2086 # zk_args and strategy are option lists
  "$zkgroups" health --group "$group" --expect-members "$members" --wait "$wait" --settle "$settle" \
      --no-store-check $strategy $zk_args || code=$?
  if [[ $code -ge 20 && $code -le 29 ]]; then
    echo "rolling-bounce: group $group is not healthy $1 (zkgroups health exit $code, see docs/cli.md); stopping" >&2
    exit "$code"
  elif [[ $code -ne 0 ]]; then
    echo "rolling-bounce: zkgroups failed $1, health not judged: exit $code, $(zkgroups_error "$code"); stopping" >&2
    exit 4
  fi
}

run_step() { # $1: the command's name (restart, start, stop), $2: what it does, $3: the command with {}, $4: the host
  local cmd="${3//\{\}/$4}" code=0
  echo "rolling-bounce: $2 $4: $cmd" >&2
  bash -c "$cmd" || code=$?
  if [[ $code -ne 0 ]]; then
    echo "rolling-bounce: the $1 command of $4 failed (exit $code): $cmd; stopping" >&2
    exit 3
  fi
}

members_and_partitions() { # the group's members and what each owns, as zkgroups groups describe --members prints them
  # shellcheck disable=SC2086 # zk_args is an option list
  "$zkgroups" groups describe --group "$group" --members $zk_args 2>/dev/null || true
}

gate "before the first bounce"
for host in "$@"; do
  [[ -n "$handover" ]] && before="$(members_and_partitions)"
  if [[ -n "$restart" ]]; then
    run_step restart restarting "$restart" "$host"
  else
    run_step start "starting the successor on" "$start" "$host"
    run_step stop "stopping the old process on" "$stop" "$host"
  fi
  gate "after restarting $host"
  if [[ -n "$handover" ]]; then
    if [[ -z "$before" ]]; then
      echo "rolling-bounce: could not read group $group's members before restarting $host (zkgroups groups" \
           "describe failed); hand-over not checked" >&2
    elif [[ "$(members_and_partitions)" == "$before" ]]; then
      echo "rolling-bounce: $host handed its session over: members and partitions unchanged, no rebalance" >&2
    else
      echo "rolling-bounce: $host did not hand its session over: the group rebalanced (was the successor started" \
           "within zkgroups.restart.grace.ms of the hand-over? docs/restarts.md); going on" >&2
    fi
  fi
  echo "rolling-bounce: $host done, group $group healthy" >&2
done
echo "rolling-bounce: all $# members bounced; group $group healthy" >&2
