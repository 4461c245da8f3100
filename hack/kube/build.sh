#!/usr/bin/env bash
# Builds kube-apiserver, etcd and helm from the committed wrapper modules into a cache outside
# the clone, keyed by version, and prints the cache's bin folder. A warm cache builds nothing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.env"
cache=${ATRIUM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/atrium}
bin="$cache/kube-${KUBE_VERSION}_etcd-${ETCD_VERSION}_helm-${HELM_VERSION}/bin"
mkdir -p "$bin"
exec 9>"$bin/.lock" && flock 9 # two test runs starting together build once
export GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0 GOFLAGS=-mod=mod

build() { # build <name> <module folder> <package> [ldflags]
  local name=$1 dir=$2 pkg=$3 ldflags=${4:-}
  [ -x "$bin/$name" ] && return 0
  echo "building $name (a cold build takes minutes on 2 cores)..." >&2
  (cd "$here/$dir" && go build -trimpath -ldflags "-s -w $ldflags" -o "$bin/$name.tmp" "$pkg")
  mv "$bin/$name.tmp" "$bin/$name"
}

minor=${KUBE_VERSION#*.}; minor=${minor%%.*}
build etcd etcd go.etcd.io/etcd/server/v3
build kube-apiserver kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver \
  "-X k8s.io/component-base/version.gitVersion=v${KUBE_VERSION} -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=${minor} -X k8s.io/component-base/version.gitTreeState=clean"
build helm helm helm.sh/helm/v4/cmd/helm \
  "-X helm.sh/helm/v4/internal/version.version=v${HELM_VERSION}"
echo "$bin"
