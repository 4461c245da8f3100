/**
 * What every route needs: configuration, the database, and the running version.
 */
import type { ControlPlaneConfig } from "./config.ts";
import type { Database } from "./db/database.ts";

export interface AppContext {
  config: ControlPlaneConfig;
  database: Database;
  version: string;
}
