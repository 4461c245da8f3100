/**
 * `node control-plane/src/main.ts`: runs the control plane until SIGTERM / SIGINT, then
 * stops accepting requests, finishes those in flight and closes the database.
 */
import { startControlPlane, VERSION } from "./app.ts";
import { configFromEnv } from "./config.ts";
import { serializeError } from "./log-hygiene.ts";

const config = configFromEnv();
const controlPlane = await startControlPlane(config, { processMetrics: true }).catch((error: Error) => {
  // The message only: a failed query's parameters (password hashes among them) stay out.
  console.error(`atrium control plane failed to start: ${serializeError(error).message}`);
  process.exit(1);
});
const log = controlPlane.app.log;
log.info(
  {
    version: VERSION,
    database: controlPlane.database.kind,
    url: controlPlane.url,
    metrics: controlPlane.managementUrl,
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

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    controlPlane.close().then(
      () => process.exit(0),
      (error: Error) => {
        log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  });
}
