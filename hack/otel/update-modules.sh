#!/usr/bin/env bash
# Regenerates the wrapper Go module of the tests' collector (hack/otel/collector) from the Go
# module proxy, at the versions of versions.env. main.go (committed) lists the components.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.env"
export GOTOOLCHAIN=local GOWORK=off GOFLAGS=-mod=mod
core=go.opentelemetry.io/collector
printf 'module atrium.dev/hack/otelcol\n\ngo 1.26\n' > "$here/collector/go.mod"
(
  cd "$here/collector" && rm -f go.sum
  go get \
    "github.com/open-telemetry/opentelemetry-collector-contrib/exporter/fileexporter@v${OTELCOL_VERSION}" \
    "$core/otelcol@v${OTELCOL_VERSION}" "$core/service@v${OTELCOL_VERSION}" \
    "$core/receiver/otlpreceiver@v${OTELCOL_VERSION}" \
    "$core/component@v${OTELCOL_STABLE_VERSION}" "$core/confmap@v${OTELCOL_STABLE_VERSION}" \
    "$core/confmap/provider/envprovider@v${OTELCOL_STABLE_VERSION}" \
    "$core/confmap/provider/fileprovider@v${OTELCOL_STABLE_VERSION}" \
    "$core/featuregate@v${OTELCOL_STABLE_VERSION}" \
    "$core/exporter@v${OTELCOL_STABLE_VERSION}" "$core/receiver@v${OTELCOL_STABLE_VERSION}"
  go mod tidy
)
echo "wrapper module updated for otelcol ${OTELCOL_VERSION} (stable modules ${OTELCOL_STABLE_VERSION})"
