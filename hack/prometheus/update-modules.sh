#!/usr/bin/env bash
# Regenerates the wrapper Go modules of the tests' promtool (hack/prometheus/promtool) and
# Prometheus server (hack/prometheus/server) from the Go module proxy, at the version of versions.env.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.env"
export GOTOOLCHAIN=local GOWORK=off GOFLAGS=-mod=mod
# update DIR MODULE_PATH COMMAND
update() {
  printf 'module %s\n\ngo 1.26\n' "$2" > "$here/$1/go.mod"
  (
    cd "$here/$1" && rm -f go.sum
    go get -tool "github.com/prometheus/prometheus/cmd/$3@v${PROMETHEUS_MODULE_VERSION}"
    go mod tidy
  )
  echo "wrapper module updated for $3 (github.com/prometheus/prometheus v${PROMETHEUS_MODULE_VERSION})"
}
update promtool atrium.dev/hack/promtool promtool
update server atrium.dev/hack/prometheus-server prometheus
