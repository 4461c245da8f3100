#!/usr/bin/env bash
# Runs the e2e tests (e2e/src) against a kind cluster, for people with Docker and a registry.
#   hack/kind-e2e.sh [--keep] [vitest args...]
# Creates the kind cluster `atrium-e2e` unless it exists (ATRIUM_KIND_CLUSTER names another), runs
# the tests with ATRIUM_E2E_KIND_CLUSTER and KUBECONFIG set (e2e/src/environment.ts then uses kind
# instead of starting the local cluster), and deletes the cluster it created unless --keep.
# Needs kind, docker and kubectl on PATH, plus podman (the images are built with it and loaded
# with `kind load image-archive`) and Debian's busybox-static (the tests' small image).
# It cannot run on the machines this repository is built on (no Docker, no registry for
# kindest/node): there, hack/test runs the same tests on the local cluster of hack/cluster.
set -euo pipefail
. "$(dirname "$0")/env.sh"
cd "$ATRIUM_ROOT"
keep=false
if [ "${1:-}" = "--keep" ]; then keep=true; shift; fi
for tool in kind docker kubectl podman; do
  command -v "$tool" >/dev/null 2>&1 || { echo "atrium: hack/kind-e2e.sh needs $tool on PATH" >&2; exit 1; }
done
cluster=${ATRIUM_KIND_CLUSTER:-atrium-e2e}
created=false
if ! kind get clusters 2>/dev/null | grep -qx "$cluster"; then
  atrium_log "creating kind cluster $cluster"
  kind create cluster --name "$cluster" --wait 120s
  created=true
fi
kubeconfig=$(mktemp)
cleanup() {
  rm -f "$kubeconfig"
  if $created && ! $keep; then atrium_log "deleting kind cluster $cluster"; kind delete cluster --name "$cluster"; fi
}
trap cleanup EXIT
kind get kubeconfig --name "$cluster" >"$kubeconfig"
ATRIUM_E2E_KIND_CLUSTER=$cluster KUBECONFIG=$kubeconfig npx vitest run e2e/ "$@"
