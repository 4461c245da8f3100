/**
 * A control plane on in-memory PGlite for the gateway benchmark, in its own process so its
 * work never shares an event loop with the load generator. Prints `listening <url>`; the
 * benchmark logs in as the test admin (`TEST_ADMIN`) and configures it through the REST API.
 *
 *   node bench/gateway/control-plane.ts
 */
import { startTestControlPlane } from "@atrium/control-plane/testing";

const controlPlane = await startTestControlPlane("pglite");
console.log(`listening ${controlPlane.url}`);
process.on("SIGTERM", () => {
  controlPlane.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
