/**
 * The cluster's network: a veth pair from the host into the cluster's network namespace, a bridge
 * for the pods inside it, and host routes for the pod and Service ranges into the namespace. The
 * namespace has forwarding on and no default route; the host's own settings are left alone.
 * Deleting the namespace (teardown.sh) removes all of it, host routes included.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import {
  BRIDGE,
  HOST_IP,
  HOST_LINK,
  LINK_PREFIX,
  NETNS,
  NODE_IP,
  NODE_LINK,
  POD_CIDR,
  POD_GATEWAY,
  SERVICE_CIDR,
} from "./layout.ts";

const run = promisify(execFile);

async function ip(args: string[]): Promise<void> {
  try {
    await run("ip", args);
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    throw new Error(`ip ${args.join(" ")} failed: ${stderr.trim()}`);
  }
}

/** Sets up links, addresses, routes and sysctls in the (already created) namespace. */
export async function createNetwork(): Promise<void> {
  const inNs = (args: string[]) => ip(["-n", NETNS, ...args]);
  // The kernel frees a deleted namespace, and the veth end inside it, asynchronously: the previous
  // run's host end can still be there for a moment ("File exists"). This run holds the one-cluster
  // lock, so such a link is a leftover; deleting one end deletes the pair.
  await run("ip", ["link", "del", HOST_LINK]).catch(() => {});
  await ip(["link", "add", HOST_LINK, "type", "veth", "peer", "name", NODE_LINK, "netns", NETNS]);
  await ip(["addr", "add", `${HOST_IP}/${LINK_PREFIX}`, "dev", HOST_LINK]);
  await ip(["link", "set", HOST_LINK, "up"]);
  await inNs(["link", "set", "lo", "up"]);
  await inNs(["addr", "add", `${NODE_IP}/${LINK_PREFIX}`, "dev", NODE_LINK]);
  await inNs(["link", "set", NODE_LINK, "up"]);
  // The bridge exists before the CNI plugin runs, with the pods' gateway address: the plugin reuses it.
  await inNs(["link", "add", BRIDGE, "type", "bridge"]);
  await inNs(["addr", "add", `${POD_GATEWAY}/${POD_CIDR.split("/")[1]}`, "dev", BRIDGE]);
  await inNs(["link", "set", BRIDGE, "up"]);
  for (const range of [POD_CIDR, SERVICE_CIDR]) await ip(["route", "add", range, "via", NODE_IP, "dev", HOST_LINK]);
  // Without a default route, the namespace's own processes (the API server calling an admission
  // webhook's Service) need a route for the Service range, or connect() fails before kube-proxy's
  // OUTPUT DNAT runs; after DNAT the pod's bridge route applies.
  await inNs(["route", "add", SERVICE_CIDR, "dev", BRIDGE]);
  // Inside the namespace only: forwarding between the veth and the bridge, and bridged pod-to-pod
  // traffic through iptables so a Service reply from a pod on the same bridge is un-NATed.
  if (!existsSync("/proc/sys/net/bridge")) {
    await run("modprobe", ["br_netfilter"]).catch((error: Error) => {
      throw new Error(
        `the test cluster needs the br_netfilter kernel module (modprobe br_netfilter): ${error.message}`,
      );
    });
  }
  await run("ip", [
    ...["netns", "exec", NETNS, "sysctl", "-q", "-w"],
    ...["net.ipv4.ip_forward=1", "net.bridge.bridge-nf-call-iptables=1"],
  ]);
}
