/**
 * `node webhook/src/main.ts`: runs the admission webhook until SIGTERM / SIGINT, then answers the
 * reviews in flight and exits. Settings come from ATRIUM_* variables (see config.ts).
 */
import { settingsOrExit, startedOrExit, stopOnSignal } from "@atrium/contract/process-lifecycle";
import { configFromEnv } from "./config.ts";
import { startWebhook } from "./server.ts";

const config = settingsOrExit("atrium webhook", configFromEnv);
const webhook = await startedOrExit("atrium webhook", startWebhook(config));
webhook.app.log.info({ url: webhook.url }, "admission webhook listening");

stopOnSignal((signal) => {
  webhook.app.log.info({ signal }, "shutting down");
  return webhook.close();
});
