/**
 * `node gateway/src/main.ts`: runs a gateway until SIGTERM / SIGINT, then deregisters,
 * finishes the requests in flight and exits.
 */
import { settingsOrExit, startedOrExit, stopOnSignal } from "@atrium/contract/process-lifecycle";
import { configFromEnv } from "./config.ts";
import { startGateway } from "./gateway.ts";

const config = settingsOrExit("atrium gateway", configFromEnv);
const gateway = await startedOrExit("atrium gateway", startGateway(config));
gateway.app.log.info({ url: gateway.url, id: config.id, controlPlane: config.controlPlaneUrl }, "gateway listening");

stopOnSignal(() => gateway.close());
