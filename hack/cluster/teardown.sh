#!/usr/bin/env bash
# teardown.sh <run folder>: stops a test cluster started by hack/cluster and removes every trace of
# it, whatever state it is in (running, half started, or left behind by a process that died).
# It is what stop() runs, what the watchdog runs when the test process dies, and what down.sh runs.
#  1. kills the kubelet, controller-manager and scheduler (nothing starts new containers);
#  2. while containerd answers, kills and deletes every container through it, so its root (kept
#     between runs, with the imported images) stays consistent: then the in-use marker goes;
#  3. kills every other process whose command line names the run folder (containerd and its shims,
#     kube-proxy, kube-apiserver, etcd), then any container runc still knows in the run's runc root;
#  4. unmounts everything under the run folder, deletes the network namespace (with the veth and
#     the host routes) and the host-path volumes when this run owns them, and removes the folder.
set -uo pipefail
dir=${1:?usage: teardown.sh <run folder>}
dir=${dir%/}
[ -f "$dir/teardown.env" ] && . "$dir/teardown.env" # NETNS, CONTAINERD_ROOT, OWNER_FILE, CTR

# Processes started for this run: their command line names the run folder. Shells (this script, the
# watchdog) are not among them.
run_pids() { # run_pids [name...]: only those binaries (builtins only: this scans every process)
  local proc args name
  for proc in /proc/[0-9]*; do
    [ "${proc#/proc/}" = "$$" ] && continue
    mapfile -d '' -t args 2>/dev/null <"$proc/cmdline" || continue
    [ ${#args[@]} -gt 0 ] && [[ "${args[*]}" == *"$dir/"* ]] || continue
    name=${args[0]##*/}
    case "$name" in bash|sh|dash|flock|sleep) continue ;; esac
    [ $# -eq 0 ] || [[ " $* " == *" $name "* ]] && echo "${proc#/proc/}"
  done
}

kill_and_wait() { # kill_and_wait <pid>...
  [ $# -eq 0 ] && return 0
  kill -KILL "$@" 2>/dev/null
  local i
  for i in $(seq 50); do
    local left=0 pid
    for pid in "$@"; do [ -e "/proc/$pid" ] && left=1; done
    [ $left -eq 0 ] && return 0
    sleep 0.1
  done
}

# 1. The loops that would start containers again.
kill_and_wait $(run_pids kubelet kube-controller-manager kube-scheduler)

# 2. Containers, through containerd while it answers.
sock="$dir/containerd/containerd.sock"
if [ -S "$sock" ] && [ -n "${CTR:-}" ]; then
  ctr=("$CTR" --address "$sock" --timeout 10s -n k8s.io)
  if "${ctr[@]}" version >/dev/null 2>&1; then
    clean=true
    for task in $("${ctr[@]}" tasks ls -q 2>/dev/null); do
      "${ctr[@]}" tasks kill --all --signal SIGKILL "$task" >/dev/null 2>&1
    done
    # containerd's CRI deletes a task once it exited; what is left after 5 s is deleted by force.
    for _ in $(seq 50); do [ -z "$("${ctr[@]}" tasks ls -q 2>/dev/null)" ] && break; sleep 0.1; done
    for task in $("${ctr[@]}" tasks ls -q 2>/dev/null); do
      "${ctr[@]}" tasks rm --force "$task" >/dev/null 2>&1
    done
    for container in $("${ctr[@]}" containers ls -q 2>/dev/null); do
      "${ctr[@]}" containers rm "$container" >/dev/null 2>&1 || clean=false
    done
    [ -n "$("${ctr[@]}" tasks ls -q 2>/dev/null)" ] && clean=false
    $clean && [ -n "${CONTAINERD_ROOT:-}" ] && rm -f "$CONTAINERD_ROOT/.in-use"
  fi
fi

# 3. Everything else of this run, then containers that outlived their shims.
kill_and_wait $(run_pids)
for root in "$dir"/runc/*/; do
  [ -d "$root" ] || continue
  for id in $(runc --root "$root" list -q 2>/dev/null); do
    runc --root "$root" kill --all "$id" KILL >/dev/null 2>&1
    runc --root "$root" delete --force "$id" >/dev/null 2>&1
  done
done

# 4. Mounts (deepest first), the namespace, the folder.
awk -v prefix="$dir/" 'index($5, prefix) == 1 { print $5 }' /proc/self/mountinfo | sort -r | while read -r mount; do
  umount "$mount" 2>/dev/null || umount -l "$mount" 2>/dev/null
done
if [ -n "${NETNS:-}" ] && [ -n "${OWNER_FILE:-}" ] && [ "$(cut -d' ' -f2 "$OWNER_FILE" 2>/dev/null)" = "$dir" ]; then
  # The owner file first: the next run takes the namespace, and then writes its own owner file.
  rm -f "$OWNER_FILE"
  ip netns del "$NETNS" 2>/dev/null
  # Volumes of the built-in host-path provisioner (a path fixed in Kubernetes; one cluster per machine).
  rm -rf /tmp/hostpath_pv
fi
rm -rf -- "$dir"
