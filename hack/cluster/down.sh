#!/usr/bin/env bash
# Stops the test cluster started by up.sh (or removes what a crashed run left behind).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../env.sh"
owner="$ATRIUM_CACHE_DIR/cluster/owner"
if [ ! -s "$owner" ]; then
  atrium_log "no test cluster is running"
  exit 0
fi
read -r pid dir <"$owner"
if kill -0 "$pid" 2>/dev/null; then
  atrium_log "stopping the test cluster of process $pid"
  kill -TERM "$pid"
  for _ in $(seq 120); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
fi
# Whatever is left (the owner died, or did not finish): teardown.sh is idempotent.
[ -s "$owner" ] && bash "$here/teardown.sh" "$dir"
rm -f "$ATRIUM_CACHE_DIR/cluster/kubeconfig-path"
atrium_log "test cluster stopped"
