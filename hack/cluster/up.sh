#!/usr/bin/env bash
# Starts the one-node test cluster in the background and prints the kubeconfig to use:
#   hack/cluster/up.sh && export KUBECONFIG=$(cat ~/.cache/atrium/cluster/kubeconfig-path)
# Stop it with hack/cluster/down.sh. Needs root. Its log: ~/.cache/atrium/cluster/up.log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../env.sh"
state="$ATRIUM_CACHE_DIR/cluster"
mkdir -p "$state"
rm -f "$state/kubeconfig-path"
# setsid: the cluster outlives this shell; it stops on SIGTERM (down.sh).
setsid node "$here/src/cli.ts" >"$state/up.out" 2>"$state/up.log" </dev/null &
pid=$!
atrium_log "starting the test cluster (pid $pid, log $state/up.log)"
while kill -0 "$pid" 2>/dev/null; do
  if grep -q '^BIN=' "$state/up.out" 2>/dev/null; then
    sed -n 's/^KUBECONFIG=//p' "$state/up.out" >"$state/kubeconfig-path"
    atrium_log "cluster ready: export KUBECONFIG=$(cat "$state/kubeconfig-path")"
    atrium_log "kubectl and helm: $(sed -n 's/^BIN=//p' "$state/up.out")"
    exit 0
  fi
  sleep 1
done
echo "atrium: the test cluster did not start; the end of $state/up.log:" >&2
tail -n 30 "$state/up.log" >&2
exit 1
