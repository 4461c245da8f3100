/**
 * `node operator/src/main.ts`: runs the operator until SIGTERM / SIGINT, then finishes the
 * reconciles in flight, hands the leader Lease back and exits.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { settingsOrExit, startedOrExit, stopOnSignal } from "@atrium/contract/process-lifecycle";
import { startTracing } from "@atrium/contract/telemetry";
import { configFromEnv } from "./config.ts";
import { startOperator } from "./operator.ts";

const config = settingsOrExit("atrium operator", configFromEnv);
const { version } = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8"));
// Before the operator starts: reconciles are traced only when an OTLP endpoint is set.
const traces = await startedOrExit(
  "atrium operator",
  startTracing({ name: "atrium-operator", version }, () => import("@opentelemetry/sdk-node")),
);
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

stopOnSignal(async () => {
  await operator.stop();
  await traces?.shutdown();
});
