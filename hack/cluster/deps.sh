#!/usr/bin/env bash
# Installs what the one-node test cluster runs on, when missing (Debian packages, quietly):
# containerd + runc, the CNI plugins, iptables and conntrack (kube-proxy), iproute2 and util-linux
# (network namespace, nsenter), openssl (certificates) and busybox-static (the cluster's own small
# images). podman comes through hack/images/podman, which installs it itself.
set -euo pipefail
missing=()
for tool in containerd:containerd runc:runc /usr/lib/cni/bridge:containernetworking-plugins \
  iptables:iptables conntrack:conntrack ip:iproute2 nsenter:util-linux openssl:openssl \
  /bin/busybox:busybox-static; do
  path=${tool%%:*}
  if [[ $path == /* ]]; then [ -x "$path" ] && continue; else command -v "$path" >/dev/null 2>&1 && continue; fi
  missing+=("${tool#*:}")
done
[ ${#missing[@]} -eq 0 ] && exit 0
[ "$(id -u)" -eq 0 ] || { echo "atrium: the test cluster needs ${missing[*]} (apt-get install ${missing[*]}), or run as root" >&2; exit 1; }
printf '\033[2m[atrium]\033[0m %s\n' "installing ${missing[*]} (apt-get)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get -qq -o DPkg::Lock::Timeout=600 install -y "${missing[@]}" >/dev/null \
  || { apt-get -qq update && apt-get -qq -o DPkg::Lock::Timeout=600 install -y "${missing[@]}" >/dev/null; }
