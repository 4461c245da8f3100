/**
 * `node control-plane/src/main.ts`: runs the control plane until SIGTERM / SIGINT, then
 * stops accepting requests, finishes those in flight and closes the database.
 */
import { startedOrExit, stopOnSignal } from "@atrium/contract/process-lifecycle";
import { startTracing } from "@atrium/contract/telemetry";
import { startControlPlane, VERSION } from "./app.ts";
import { configFromEnv } from "./config.ts";
import { serializeError } from "./log-hygiene.ts";

const config = configFromEnv();
// Before the server is built: its hooks and the database's wrappers exist only with tracing on.
const traces = await startedOrExit(
  "atrium control plane",
  startTracing({ name: "atrium-control-plane", version: VERSION }, () => import("@opentelemetry/sdk-node")),
);
// The message only: a failed query's parameters (password hashes among them) stay out.
const controlPlane = await startedOrExit(
  "atrium control plane",
  startControlPlane(config, { processMetrics: true }),
  (error) => serializeError(error).message,
);
const log = controlPlane.app.log;
log.info(
  {
    version: VERSION,
    database: controlPlane.database.kind,
    url: controlPlane.url,
    metrics: controlPlane.managementUrl,
    ui: config.uiDir ? `${controlPlane.url}/` : "not served (ATRIUM_UI_DIR unset)",
  },
  "control plane ready",
);
log.info(controlPlane.bootstrap.message);
if (controlPlane.bootstrap.generatedPassword) {
  // Printed once, to the terminal only: the log keeps no password.
  process.stdout.write(
    `\nAdmin created: organization '${controlPlane.bootstrap.organization}', user '${controlPlane.bootstrap.username}', ` +
      `password '${controlPlane.bootstrap.generatedPassword}' (shown once; change it after logging in)\n\n`,
  );
}

stopOnSignal(async (signal) => {
  log.info({ signal }, "shutting down");
  await controlPlane.close().catch((error: Error) => {
    log.error({ err: error }, "shutdown failed");
    throw error;
  });
  // The spans still buffered go out before the process ends.
  await traces?.shutdown();
});
