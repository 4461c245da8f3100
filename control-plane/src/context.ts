/**
 * What every route needs: configuration, the database, the running version, and the
 * per-replica services (change hub, credential watch, metrics).
 */
import type { CredentialWatch } from "./auth/credential-watch.ts";
import type { ControlPlaneConfig } from "./config.ts";
import type { Database } from "./db/database.ts";
import type { ControlPlaneMetrics } from "./metrics.ts";
import type { SecretCipher } from "./secrets/cipher.ts";
import type { ChangeHub } from "./stream/hub.ts";

export interface AppContext {
  config: ControlPlaneConfig;
  database: Database;
  version: string;
  cipher: SecretCipher;
  hub: ChangeHub;
  /** Ends change streams whose credential is revoked. */
  credentials: CredentialWatch;
  metrics: ControlPlaneMetrics;
}
