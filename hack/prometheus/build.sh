#!/usr/bin/env bash
# Builds one of the tests' Prometheus binaries from its committed wrapper module into a cache
# outside the clone, keyed by version, and prints the binary's path (last stdout line). A warm
# cache builds nothing.
#   promtool (default): the rule checker and rule unit-test runner (hack/prometheus/promtool).
#   prometheus: the server, for its HTTP API only (hack/prometheus/server; the dashboard preview
#     and its test evaluate the dashboard's queries with it). Its web UI's assets are not built in.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.env"
. "$here/../go-tool.sh"
tool=${1:-promtool}
case "$tool" in
  promtool) module="$here/promtool" ;;
  prometheus) module="$here/server" ;;
  *) echo "usage: $0 [promtool|prometheus]" >&2; exit 2 ;;
esac
# remove_all_sd: Prometheus's own build tag leaving out the cloud service-discovery plugins
# (AWS, Azure, GCE, Kubernetes, …), which rule checks, rule tests and static scrape targets never use.
atrium_go_tool "$tool" "$PROMETHEUS_MODULE_VERSION" "$module" "go.mod go.sum" \
  -tags remove_all_sd -ldflags "-s -w" "github.com/prometheus/prometheus/cmd/$tool"
