/**
 * `node gateway/src/main.ts`: runs a gateway until SIGTERM / SIGINT, then deregisters,
 * finishes the requests in flight and exits.
 */
import { settingsOrExit, startedOrExit, stopOnSignal } from "@atrium/contract/process-lifecycle";
import { startTracing } from "@atrium/contract/telemetry";
import { configFromEnv } from "./config.ts";
import { startGateway, VERSION } from "./gateway.ts";

const config = settingsOrExit("atrium gateway", configFromEnv);
// Before the servers are built: they wrap their routes in spans only when tracing is on.
const traces = await startedOrExit(
  "atrium gateway",
  startTracing({ name: "atrium-gateway", version: VERSION }, () => import("@opentelemetry/sdk-node")),
);
const gateway = await startedOrExit("atrium gateway", startGateway(config));
gateway.app.log.info({ url: gateway.url, id: config.id, controlPlane: config.controlPlaneUrl }, "gateway listening");

stopOnSignal(async () => {
  await gateway.close();
  await traces?.shutdown();
});
