#!/usr/bin/env bash
# Builds the test-cluster binaries from the committed wrapper modules into a cache outside the
# clone, keyed by version, and prints the cache's bin folder (last stdout line). A warm cache
# builds nothing.
#   build.sh            etcd, kube-apiserver, helm (what hack/kube-testenv runs)
#   build.sh --cluster  also kubelet, kube-controller-manager, kube-scheduler, kube-proxy, kubectl
#                       and coredns (what hack/cluster runs)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.env"
cluster=false
case "${1:-}" in
  "") ;;
  --cluster) cluster=true ;;
  *) echo "usage: $0 [--cluster]" >&2; exit 2 ;;
esac
cache=${ATRIUM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/atrium}
bin="$cache/kube-${KUBE_VERSION}_etcd-${ETCD_VERSION}_helm-${HELM_VERSION}/bin"
mkdir -p "$bin"
exec 9>"$bin/.lock" && flock 9 # two test runs starting together build once
export GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0 GOFLAGS=-mod=mod

build() { # build <module folder> <ldflags> <output folder> <name>=<package>... (only the missing ones)
  local dir=$1 ldflags=$2 out=$3 names=() pkgs=() arg
  shift 3
  for arg in "$@"; do
    [ -x "$out/${arg%%=*}" ] || { names+=("${arg%%=*}"); pkgs+=("${arg#*=}"); }
  done
  [ ${#names[@]} -eq 0 ] && return 0
  echo "building ${names[*]} (a cold build takes minutes on 2 cores)..." >&2
  local started=$SECONDS tmp="$out/.build.$$" target name
  rm -rf "$tmp" && mkdir -p "$tmp"
  # One go build for several commands (each named after its folder): shared packages compile once.
  target="$tmp/"; [ ${#names[@]} -eq 1 ] && target="$tmp/${names[0]}"
  (cd "$here/$dir" && go build -trimpath -ldflags "-s -w $ldflags" -o "$target" "${pkgs[@]}")
  for name in "${names[@]}"; do mv "$tmp/$name" "$out/$name"; done
  rm -rf "$tmp"
  echo "built ${names[*]} in $((SECONDS - started)) s" >&2
}

minor=${KUBE_VERSION#*.}; minor=${minor%%.*}
kube_ldflags="-X k8s.io/component-base/version.gitVersion=v${KUBE_VERSION} -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=${minor} -X k8s.io/component-base/version.gitTreeState=clean"
kube_ldflags+=" -X k8s.io/client-go/pkg/version.gitVersion=v${KUBE_VERSION} -X k8s.io/client-go/pkg/version.gitMajor=1 -X k8s.io/client-go/pkg/version.gitMinor=${minor}"
build etcd "" "$bin" etcd=go.etcd.io/etcd/server/v3
build kubernetes "$kube_ldflags" "$bin" kube-apiserver=k8s.io/kubernetes/cmd/kube-apiserver
build helm "-X helm.sh/helm/v4/internal/version.version=v${HELM_VERSION}" "$bin" helm=helm.sh/helm/v4/cmd/helm
if $cluster; then
  build kubernetes "$kube_ldflags" "$bin" \
    kubelet=k8s.io/kubernetes/cmd/kubelet kube-controller-manager=k8s.io/kubernetes/cmd/kube-controller-manager \
    kube-scheduler=k8s.io/kubernetes/cmd/kube-scheduler kube-proxy=k8s.io/kubernetes/cmd/kube-proxy \
    kubectl=k8s.io/kubernetes/cmd/kubectl
  # CoreDNS has its own version: its own cache folder, linked into the bin folder.
  coredns_bin="$cache/coredns-${COREDNS_VERSION}/bin"
  mkdir -p "$coredns_bin"
  build coredns "-X github.com/coredns/coredns/coremain.GitCommit=v${COREDNS_VERSION}" "$coredns_bin" coredns=atrium.dev/hack/coredns
  ln -sfn "$coredns_bin/coredns" "$bin/coredns"
fi
echo "$bin"
