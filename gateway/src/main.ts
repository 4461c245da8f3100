/**
 * `node gateway/src/main.ts`: runs a gateway until SIGTERM / SIGINT, then deregisters,
 * finishes the requests in flight and exits.
 */
import { configFromEnv } from "./config.ts";
import { startGateway } from "./gateway.ts";

let config: ReturnType<typeof configFromEnv>;
try {
  config = configFromEnv();
} catch (error) {
  console.error(`atrium gateway: ${(error as Error).message}`);
  process.exit(2);
}
const gateway = await startGateway(config).catch((error: Error) => {
  console.error(`atrium gateway failed to start: ${error.message}`);
  process.exit(1);
});
gateway.app.log.info({ url: gateway.url, id: config.id, controlPlane: config.controlPlaneUrl }, "gateway listening");

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    gateway.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
