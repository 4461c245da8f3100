/**
 * What every route needs: configuration, the database, and the running version.
 */
import type { ControlPlaneConfig } from "./config.ts";
import type { Database } from "./db/database.ts";
import type { SecretCipher } from "./secrets/cipher.ts";
import type { ChangeHub } from "./stream/hub.ts";

export interface AppContext {
  config: ControlPlaneConfig;
  database: Database;
  version: string;
  cipher: SecretCipher;
  hub: ChangeHub;
}
