/**
 * `node operator/src/main.ts`: runs the operator until SIGTERM / SIGINT, then finishes the
 * reconciles in flight, hands the leader Lease back and exits.
 */
import { configFromEnv, type OperatorConfig } from "./config.ts";
import { startOperator } from "./operator.ts";

let config: OperatorConfig;
try {
  config = configFromEnv();
} catch (error) {
  console.error(`atrium operator: ${(error as Error).message}`);
  process.exit(2);
}
const operator = await startOperator(config, { processMetrics: true }).catch((error: Error) => {
  console.error(`atrium operator failed to start: ${error.message}`);
  process.exit(1);
});
console.error(
  JSON.stringify({
    msg: "operator started",
    url: operator.url,
    identity: operator.identity,
    controlPlane: config.controlPlaneUrl,
    namespaces: config.watchNamespaces.length === 0 ? "all" : config.watchNamespaces,
  }),
);

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    operator.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
