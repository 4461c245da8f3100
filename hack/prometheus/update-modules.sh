#!/usr/bin/env bash
# Regenerates the wrapper Go module of the tests' promtool (hack/prometheus/promtool) from the Go
# module proxy, at the version of versions.env.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.env"
export GOTOOLCHAIN=local GOWORK=off GOFLAGS=-mod=mod
printf 'module atrium.dev/hack/promtool\n\ngo 1.26\n' > "$here/promtool/go.mod"
(
  cd "$here/promtool" && rm -f go.sum
  go get -tool "github.com/prometheus/prometheus/cmd/promtool@v${PROMETHEUS_MODULE_VERSION}"
  go mod tidy
)
echo "wrapper module updated for promtool (github.com/prometheus/prometheus v${PROMETHEUS_MODULE_VERSION})"
