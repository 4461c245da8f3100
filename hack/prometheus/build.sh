#!/usr/bin/env bash
# Builds the tests' promtool (Prometheus's rule checker and rule unit-test runner) from the
# committed wrapper module hack/prometheus/promtool into a cache outside the clone, keyed by
# version, and prints the binary's path (last stdout line). A warm cache builds nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.env"
. "$here/../go-tool.sh"
[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }
# remove_all_sd: Prometheus's own build tag leaving out the cloud service-discovery plugins
# (AWS, Azure, GCE, Kubernetes, …), which rule checks and rule tests never use.
atrium_go_tool promtool "$PROMETHEUS_MODULE_VERSION" "$here/promtool" "go.mod go.sum" \
  -tags remove_all_sd -ldflags "-s -w" github.com/prometheus/prometheus/cmd/promtool
