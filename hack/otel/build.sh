#!/usr/bin/env bash
# Builds the tests' OpenTelemetry Collector (OTLP receiver in, file exporter out) from the
# committed wrapper module hack/otel/collector into a cache outside the clone, keyed by version,
# and prints the binary's path (last stdout line). A warm cache builds nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.env"
[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }
cache=${ATRIUM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/atrium}
bin="$cache/otelcol-${OTELCOL_VERSION}/bin"
mkdir -p "$bin"
exec 9>"$bin/.lock" && flock 9 # two test runs starting together build once
# The components are in main.go and go.mod, not in the version: a changed wrapper rebuilds.
sources=$(cd "$here/collector" && cat go.mod go.sum main.go | sha256sum | cut -c1-16)
if [ -x "$bin/otelcol" ] && [ "$(cat "$bin/otelcol.sources" 2>/dev/null)" = "$sources" ]; then
  echo "$bin/otelcol"
  exit 0
fi
export GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0 GOFLAGS=-mod=mod
echo "building otelcol ${OTELCOL_VERSION} (a cold build takes a few minutes on 2 cores)..." >&2
started=$SECONDS tmp="$bin/.build.$$"
rm -rf "$tmp" && mkdir -p "$tmp"
# -p 1: one package at a time, so a cold build leaves the other core to whatever else is running.
(cd "$here/collector" && go build -p 1 -trimpath -ldflags "-s -w -X main.version=${OTELCOL_VERSION}" -o "$tmp/otelcol" .)
mv "$tmp/otelcol" "$bin/otelcol" && echo "$sources" > "$bin/otelcol.sources"
rm -rf "$tmp"
echo "built otelcol in $((SECONDS - started)) s" >&2
echo "$bin/otelcol"
