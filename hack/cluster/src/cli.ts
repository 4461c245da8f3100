/**
 * `node hack/cluster/src/cli.ts`: starts the test cluster, prints `KUBECONFIG=<path>` once it is
 * ready, and keeps it running until SIGINT or SIGTERM, then stops it. hack/cluster/up.sh runs this
 * in the background for people; tests call startCluster() instead.
 */
import { startCluster } from "./index.ts";

const cluster = await startCluster({
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`KUBECONFIG=${cluster.kubeconfigPath}\nBIN=${cluster.binDir}\n`);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await cluster.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
// The cluster's child processes keep the event loop alive until stop().
