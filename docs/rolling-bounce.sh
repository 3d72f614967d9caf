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
# every partition owned, owners exactly as the assignor computes them, no change for --settle. The store check is
# off during a bounce (members of both configurations commit differently while the bounce is in progress); run
# `zkgroups health` without --no-store-check and `zkgroups migrate verify` after the last bounce
# (docs/migration-runbook.md).
#
# Exit codes: 0 all bounced; the health exit code (20-26, see docs/cli.md) of the check that failed; 2 usage;
# 1 a restart command failed. Connection settings come from the environment of `zkgroups`
# (ZKGROUPS_ZOOKEEPER, ZKGROUPS_BOOTSTRAP_SERVER, ZKGROUPS_ZK_AUTH) or from --zk-args '...'.
set -euo pipefail

zkgroups="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/bin/zkgroups"
group="" members="" restart="" wait="5m" settle="5s" zk_args="" strategy=""

usage() {
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2
  echo "options: --group G --members N --restart 'CMD with {} for the host' [--wait 5m] [--settle 5s]" \
       "[--strategy range|roundrobin] [--zk-args '--zookeeper zk:2181/kafka ...'] HOST..." >&2
  exit 2
}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --group) group="$2"; shift 2 ;;
    --members) members="$2"; shift 2 ;;
    --restart) restart="$2"; shift 2 ;;
    --wait) wait="$2"; shift 2 ;;
    --settle) settle="$2"; shift 2 ;;
    --strategy) strategy="--strategy $2"; shift 2 ;;
    --zk-args) zk_args="$2"; shift 2 ;;
    -h|--help) usage ;;
    --*) echo "unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
[[ -n "$group" && -n "$members" && -n "$restart" && $# -gt 0 ]] || usage

gate() { # $1: what just happened
  local code=0
  # shellcheck disable=SC2086 # zk_args and strategy are option lists
  "$zkgroups" health --group "$group" --expect-members "$members" --wait "$wait" --settle "$settle" \
      --no-store-check $strategy $zk_args || code=$?
  if [[ $code -ne 0 ]]; then
    echo "rolling-bounce: group $group is not healthy $1 (zkgroups health exit $code, see docs/cli.md); stopping" >&2
    exit "$code"
  fi
}

gate "before the first bounce"
for host in "$@"; do
  cmd="${restart//\{\}/$host}"
  echo "rolling-bounce: restarting $host: $cmd" >&2
  if ! bash -c "$cmd"; then
    echo "rolling-bounce: the restart of $host failed; stopping" >&2
    exit 1
  fi
  gate "after restarting $host"
  echo "rolling-bounce: $host done, group $group healthy" >&2
done
echo "rolling-bounce: all $# members bounced; group $group healthy" >&2
