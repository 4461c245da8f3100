#!/usr/bin/env bash
# Installs Debian's `chromium` when /usr/bin/chromium is missing, for the browser tests
# (hack/browser, driven by playwright-core). No browser is ever downloaded from elsewhere: the
# Playwright CDN is not used. A fast no-op when Chromium is there. apt-get waits for another
# install's dpkg lock (up to 10 min), so parallel test files installing at once are safe.
# Prints what it did on stderr; the installed version on stdout.
set -euo pipefail
log() { printf '\033[2m[atrium]\033[0m %s\n' "$*" >&2; }
chromium=/usr/bin/chromium
if [ ! -x "$chromium" ]; then
  [ "$(id -u)" -eq 0 ] || { echo "atrium: the browser tests need Debian's chromium (apt-get install chromium), or run as root" >&2; exit 1; }
  log "installing chromium (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -qq -o DPkg::Lock::Timeout=600 install -y chromium >/dev/null \
    || { apt-get -qq update && apt-get -qq -o DPkg::Lock::Timeout=600 install -y chromium >/dev/null; }
  log "installed $(dpkg-query -W -f='chromium ${Version}' chromium)"
fi
dpkg-query -W -f='${Version}\n' chromium
