#!/usr/bin/env bash
# Builds the tests' OpenTelemetry Collector (OTLP receiver in, file exporter out) from the
# committed wrapper module hack/otel/collector into a cache outside the clone, keyed by version,
# and prints the binary's path (last stdout line). A warm cache builds nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.env"
. "$here/../go-tool.sh"
[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }
# The components are in main.go and go.mod, not in the version: a changed wrapper rebuilds.
atrium_go_tool otelcol "$OTELCOL_VERSION" "$here/collector" "go.mod go.sum main.go" \
  -ldflags "-s -w -X main.version=${OTELCOL_VERSION}" .
