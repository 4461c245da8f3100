#!/usr/bin/env bash
# Builds the component images from the one Containerfile at the repository's root, on the local
# base image (hack/images/base.sh builds it when missing), then starts each image once and prints
# its size and start-to-ready time. Image names are stable:
#   localhost/atrium/<control-plane|gateway|operator|webhook>:<tag>
# The tag defaults to the CLI's version (cli/package.json), the release `atrium run --release` uses.
#   hack/images/build.sh [--tag <tag>] [--no-measure] [<component>...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../env.sh"
cd "$ATRIUM_ROOT"

usage() { sed -n '2,7s/^# \{0,1\}//p' "$0" >&2; exit 2; }
tag=$(node -p 'require("./cli/package.json").version')
measure=1
components=()
while [ $# -gt 0 ]; do
  case $1 in
    --tag) [ $# -ge 2 ] || usage; tag=$2; shift 2 ;;
    --no-measure) measure=0; shift ;;
    -h|--help) usage ;;
    control-plane|gateway|operator|webhook) components+=("$1"); shift ;;
    *) echo "build.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[ ${#components[@]} -gt 0 ] || components=(control-plane gateway operator webhook)

# One build at a time (test files build in parallel): the second finds the layers cached.
mkdir -p "$ATRIUM_CACHE_DIR/images"
exec 8>"$ATRIUM_CACHE_DIR/images/build.lock"
flock 8
base=$("$here/base.sh" | tail -n 1)
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
# Networks that intercept TLS: the CA bundle Node or npm trusts here goes to the build as a secret.
ca=${NODE_EXTRA_CA_CERTS:-$(npm config get cafile 2>/dev/null || true)}
secret=()
[ -n "$ca" ] && [ "$ca" != null ] && [ -s "$ca" ] && secret=(--secret "id=npm-ca,src=$ca")

logs="$ATRIUM_CACHE_DIR/images/logs"
mkdir -p "$logs"
# The version and revision labels also go on as --label: podman's layer cache does not key the
# Containerfile's LABEL step on build-arg values, so a cached step would carry another tag's labels.
for component in "${components[@]}"; do
  image="localhost/atrium/$component:$tag"
  log="$logs/$component.log"
  started=$SECONDS
  atrium_log "building $image"
  if ! "$here/podman" build --network=host --layers "${secret[@]}" \
    --build-arg "BASE=$base" --build-arg "COMPONENT=$component" --build-arg "VERSION=$tag" \
    --build-arg "REVISION=$revision" \
    --build-arg "DESCRIPTION=$(node -p "require('./$component/package.json').description")" \
    --label "org.opencontainers.image.version=$tag" --label "org.opencontainers.image.revision=$revision" \
    --tag "$image" --file Containerfile . >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "build.sh: building $image failed (whole log: $log)" >&2
    exit 1
  fi
  atrium_log "built $image in $((SECONDS - started)) s"
done

if [ "$measure" = 1 ]; then
  node "$here/measure.ts" --tag "$tag" "${components[@]}"
fi
