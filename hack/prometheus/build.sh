#!/usr/bin/env bash
# Builds the tests' promtool (Prometheus's rule checker and rule unit-test runner) from the
# committed wrapper module hack/prometheus/promtool into a cache outside the clone, keyed by
# version, and prints the binary's path (last stdout line). A warm cache builds nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.env"
[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }
cache=${ATRIUM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/atrium}
bin="$cache/promtool-${PROMETHEUS_MODULE_VERSION}/bin"
mkdir -p "$bin"
exec 9>"$bin/.lock" && flock 9 # two test runs starting together build once
sources=$(cd "$here/promtool" && cat go.mod go.sum | sha256sum | cut -c1-16)
if [ -x "$bin/promtool" ] && [ "$(cat "$bin/promtool.sources" 2>/dev/null)" = "$sources" ]; then
  echo "$bin/promtool"
  exit 0
fi
export GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0 GOFLAGS=-mod=mod
echo "building promtool v${PROMETHEUS_MODULE_VERSION} (a cold build takes minutes on 2 cores)..." >&2
started=$SECONDS tmp="$bin/.build.$$"
rm -rf "$tmp" && mkdir -p "$tmp"
# remove_all_sd: Prometheus's own build tag leaving out the cloud service-discovery plugins
# (AWS, Azure, GCE, Kubernetes, …), which rule checks and rule tests never use.
# -p 1: one package at a time, so a cold build leaves the other core to whatever else is running.
(cd "$here/promtool" && go build -p 1 -trimpath -tags remove_all_sd -ldflags "-s -w" -o "$tmp/promtool" github.com/prometheus/prometheus/cmd/promtool)
mv "$tmp/promtool" "$bin/promtool" && echo "$sources" > "$bin/promtool.sources"
rm -rf "$tmp"
echo "built promtool in $((SECONDS - started)) s" >&2
echo "$bin/promtool"
