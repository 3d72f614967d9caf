#!/usr/bin/env bash
# Example: bounce the members of a ZooKeeper consumer group one by one, gated on `zkgroups health`.
#
#   docs/rolling-bounce.sh --group orders-indexer --members 4 \
#       --restart 'ssh {} sudo systemctl restart orders-indexer' host1 host2 host3 host4
#
# The restart command must return only once the old process has exited (`systemctl restart` does; a bare
# `kill` does not): a gate that runs while the old member is still leaving can see the group as it was.
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
#   3      a restart command failed (its own exit code is in the message); the hosts after it were not touched
#   4      zkgroups itself failed, so health was not judged: bad zkgroups arguments (its exit 2), ZooKeeper or Kafka
#          unreachable (5, or 11 when Kafka alone did not answer), an internal error (1), or another non-health
#          code (3, 6, 7); its exit code and meaning are in the message, its own error just above it
#   20-28  the health gate failed: the group did not become healthy within --wait; the code is health's (see
#          docs/cli.md: 20 members, 21 unowned partition, 22 foreign owner, 23 rebalance pending, ...)
# Connection settings come from the environment of `zkgroups` (ZKGROUPS_ZOOKEEPER, ZKGROUPS_BOOTSTRAP_SERVER,
# ZKGROUPS_ZK_AUTH) or from --zk-args '...'.
set -euo pipefail

zkgroups="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/bin/zkgroups"
group="" members="" restart="" wait="5m" settle="5s" zk_args="" strategy=""

usage() {
  sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//' >&2
  echo "options: --group G --members N --restart 'CMD with {} for the host' [--wait 5m] [--settle 5s]" \
       "[--strategy range|roundrobin] [--zk-args '--zookeeper zk:2181/kafka ...'] HOST..." >&2
  exit 2
}

while [[ $# -gt 0 ]]; do
  if [[ "$1" == --* && "$1" != --help && $# -lt 2 ]]; then
    echo "rolling-bounce: $1 needs a value" >&2; usage
  fi
  case "$1" in
    --group) group="$2"; shift 2 ;;
    --members) members="$2"; shift 2 ;;
    --restart) restart="$2"; shift 2 ;;
    --wait) wait="$2"; shift 2 ;;
    --settle) settle="$2"; shift 2 ;;
    --strategy) strategy="--strategy $2"; shift 2 ;;
    --zk-args) zk_args="$2"; shift 2 ;;
    -h|--help) usage ;;
    --*) echo "rolling-bounce: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
if [[ -z "$group" || -z "$restart" || $# -eq 0 ]]; then
  echo "rolling-bounce: --group, --members, --restart and at least one HOST are required" >&2; usage
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
  if [[ $code -ge 20 && $code -le 28 ]]; then
    echo "rolling-bounce: group $group is not healthy $1 (zkgroups health exit $code, see docs/cli.md); stopping" >&2
    exit "$code"
  elif [[ $code -ne 0 ]]; then
    echo "rolling-bounce: zkgroups failed $1, health not judged: exit $code, $(zkgroups_error "$code"); stopping" >&2
    exit 4
  fi
}

gate "before the first bounce"
for host in "$@"; do
  cmd="${restart//\{\}/$host}"
  echo "rolling-bounce: restarting $host: $cmd" >&2
  code=0
  bash -c "$cmd" || code=$?
  if [[ $code -ne 0 ]]; then
    echo "rolling-bounce: the restart command of $host failed (exit $code): $cmd; stopping" >&2
    exit 3
  fi
  gate "after restarting $host"
  echo "rolling-bounce: $host done, group $group healthy" >&2
done
echo "rolling-bounce: all $# members bounced; group $group healthy" >&2
