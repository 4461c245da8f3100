#!/usr/bin/env bash
# Regenerates the wrapper Go modules that build the Kubernetes binaries, etcd, helm and CoreDNS
# from the Go module proxy. k8s.io/kubernetes cannot be `go install`ed: its go.mod replaces every
# staging module with a local folder, so the wrapper replaces each one with its published v0.N.M twin.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.env"
export GOTOOLCHAIN=local GOWORK=off GOFLAGS=-mod=mod

kube_mod=$(curl -fsSL "https://proxy.golang.org/k8s.io/kubernetes/@v/v${KUBE_VERSION}.mod")
staging_version="v0.${KUBE_VERSION#1.}"
{
  echo "module atrium.dev/hack/kubernetes"
  echo
  echo "$kube_mod" | grep -E '^go [0-9]'
  echo
  echo "$kube_mod" | grep -E '^godebug ' || true
  echo
  echo "replace ("
  echo "$kube_mod" | sed -n 's#^\s*\(k8s.io/[a-z0-9-]*\) => ./staging/src/.*#\t\1 => \1 '"$staging_version"'#p'
  echo ")"
} > "$here/kubernetes/go.mod"
(
  cd "$here/kubernetes" && rm -f go.sum
  for command in kube-apiserver kube-controller-manager kube-scheduler kube-proxy kubelet kubectl; do
    go get -tool "k8s.io/kubernetes/cmd/$command@v${KUBE_VERSION}"
  done
  go mod tidy
)

printf 'module atrium.dev/hack/etcd\n\ngo 1.26\n' > "$here/etcd/go.mod"
(cd "$here/etcd" && rm -f go.sum && go get -tool "go.etcd.io/etcd/server/v3@v${ETCD_VERSION}" && go mod tidy)

printf 'module atrium.dev/hack/helm\n\ngo 1.26\n' > "$here/helm/go.mod"
(cd "$here/helm" && rm -f go.sum && go get -tool "helm.sh/helm/v4/cmd/helm@v${HELM_VERSION}" && go mod tidy)
# CoreDNS: main.go (committed) imports only the plugins the cluster's Corefile uses.
printf 'module atrium.dev/hack/coredns\n\ngo 1.26\n' > "$here/coredns/go.mod"
(cd "$here/coredns" && rm -f go.sum && go get "github.com/coredns/coredns@v${COREDNS_VERSION}" && go mod tidy)
echo "wrapper modules updated for kube ${KUBE_VERSION}, etcd ${ETCD_VERSION}, helm ${HELM_VERSION}, coredns ${COREDNS_VERSION}"
