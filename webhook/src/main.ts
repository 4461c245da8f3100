/**
 * `node webhook/src/main.ts`: runs the admission webhook until SIGTERM / SIGINT, then answers the
 * reviews in flight and exits. Settings come from ATRIUM_* variables (see config.ts).
 */
import { configFromEnv, type WebhookConfig } from "./config.ts";
import { startWebhook } from "./server.ts";

let config: WebhookConfig;
try {
  config = configFromEnv();
} catch (error) {
  console.error(`atrium webhook: ${(error as Error).message}`);
  process.exit(2);
}
const webhook = await startWebhook(config).catch((error: Error) => {
  console.error(`atrium webhook failed to start: ${error.message}`);
  process.exit(1);
});
webhook.app.log.info({ url: webhook.url }, "admission webhook listening");

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    webhook.app.log.info({ signal }, "shutting down");
    webhook.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
