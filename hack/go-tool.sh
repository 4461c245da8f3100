# Sourced by the hack/*/build.sh of the tests' Go tools (otelcol, promtool): builds one binary
# from a committed wrapper module into a cache outside the clone, keyed by name and version,
# and prints its path (last stdout line). A warm cache builds nothing; a changed wrapper
# (its source files' hash) rebuilds even at the same version.
# shellcheck shell=bash

# atrium_go_tool NAME VERSION MODULE_DIR "SOURCE FILES" GO_BUILD_ARGS...
atrium_go_tool() {
  local name=$1 version=$2 module=$3 files=$4
  shift 4
  local cache=${ATRIUM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/atrium}
  local bin="$cache/$name-$version/bin"
  mkdir -p "$bin"
  exec 9>"$bin/.lock" && flock 9 # two test runs starting together build once
  local sources
  # shellcheck disable=SC2086 # the file list is split on purpose
  sources=$(cd "$module" && cat $files | sha256sum | cut -c1-16)
  if [ -x "$bin/$name" ] && [ "$(cat "$bin/$name.sources" 2>/dev/null)" = "$sources" ]; then
    echo "$bin/$name"
    return 0
  fi
  export GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0 GOFLAGS=-mod=mod
  echo "building $name $version (a cold build takes a few minutes on 2 cores)..." >&2
  local started=$SECONDS tmp="$bin/.build.$$"
  rm -rf "$tmp" && mkdir -p "$tmp"
  # -p 1: one package at a time, so a cold build leaves the other core to whatever else is running.
  (cd "$module" && go build -p 1 -trimpath -o "$tmp/$name" "$@")
  mv "$tmp/$name" "$bin/$name" && echo "$sources" >"$bin/$name.sources"
  rm -rf "$tmp"
  echo "built $name in $((SECONDS - started)) s" >&2
  echo "$bin/$name"
}
