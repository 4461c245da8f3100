/**
 * Starts a control plane: opens and migrates the database, bootstraps the admin, listens.
 * Used by main.ts and by tests (several replicas in one test process).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loopbackUrl, managementUrl } from "@atrium/contract/management";
import type { FastifyInstance } from "fastify";
import { type BootstrapResult, bootstrapAdmin } from "./auth/bootstrap.ts";
import { CredentialWatch } from "./auth/credential-watch.ts";
import type { ControlPlaneConfig } from "./config.ts";
import type { AppContext } from "./context.ts";
import { type Database, openDatabase } from "./db/database.ts";
import { ControlPlaneMetrics } from "./metrics.ts";
import { countLiveGateways } from "./routes/gateways.ts";
import { assertAllDecryptable } from "./secrets/reencrypt.ts";
import { cipherFor } from "./secrets/startup.ts";
import { storedSecrets } from "./secrets/stored.ts";
import { buildServer } from "./server.ts";
import { ChangeHub } from "./stream/hub.ts";

export const VERSION: string = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8"),
).version;

export interface ControlPlane {
  app: FastifyInstance;
  database: Database;
  hub: ChangeHub;
  bootstrap: BootstrapResult;
  /** http://host:port it listens on. */
  url: string;
  /** http://host:port of /q/metrics and health, when ATRIUM_MANAGEMENT_PORT is set. */
  managementUrl: string | undefined;
  close(): Promise<void>;
}

/** `processMetrics`: add the process's CPU, memory, event-loop and GC metrics (once per process: main.ts). */
export async function startControlPlane(
  config: ControlPlaneConfig,
  options: { processMetrics?: boolean } = {},
): Promise<ControlPlane> {
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    const cipher = cipherFor({ keys: config.encryption, databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    // A value under a key this replica lacks is a start-up error, not a failure at first use.
    await assertAllDecryptable(cipher, storedSecrets(database.db));
    const bootstrap = await bootstrapAdmin(database.db, config.bootstrap);
    const hub = new ChangeHub(database, cipher, (error) => app.log.error({ err: error }, "change hub failed to read"));
    const credentials = new CredentialWatch(database, (error) =>
      app.log.error({ err: error }, "re-checking the credentials of open streams failed"),
    );
    const metrics = new ControlPlaneMetrics(() => countLiveGateways(database.db, config.gatewayStaleSeconds));
    if (options.processMetrics) metrics.collectProcessMetrics();
    const context: AppContext = { config, database, version: VERSION, cipher, hub, credentials, metrics };
    const app = await buildServer(context);
    await hub.start();
    await credentials.start();
    const pruning = setInterval(
      () =>
        hub
          .prune(config.changeRetentionSeconds)
          .catch((error) => app.log.warn({ err: error }, "pruning changes failed")),
      60_000,
    );
    pruning.unref();
    app.addHook("onClose", async () => {
      clearInterval(pruning);
      hub.stop();
      credentials.stop();
    });
    const address = await app.listen({ host: config.host, port: config.port });
    return {
      app,
      database,
      hub,
      bootstrap,
      url: loopbackUrl(address),
      managementUrl: managementUrl(app),
      close: async () => {
        await app.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
