/**
 * `node operator/src/main.ts`: runs the operator until SIGTERM / SIGINT, then finishes the
 * reconciles in flight, hands the leader Lease back and exits.
 */
import { settingsOrExit, startedOrExit, stopOnSignal } from "@atrium/contract/process-lifecycle";
import { configFromEnv } from "./config.ts";
import { startOperator } from "./operator.ts";

const config = settingsOrExit("atrium operator", configFromEnv);
const operator = await startedOrExit("atrium operator", startOperator(config, { processMetrics: true }));
console.error(
  JSON.stringify({
    msg: "operator started",
    url: operator.url,
    identity: operator.identity,
    controlPlane: config.controlPlaneUrl,
    namespaces: config.watchNamespaces.length === 0 ? "all" : config.watchNamespaces,
  }),
);

stopOnSignal(() => operator.stop());
