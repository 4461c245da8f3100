/**
 * `node control-plane/src/migrate.ts`: applies pending migrations to ATRIUM_DATABASE_URL and
 * exits (a Kubernetes Job or an upgrade step can run it before the replicas roll).
 */
import { configFromEnv } from "./config.ts";
import { openDatabase } from "./db/database.ts";

const config = configFromEnv();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
try {
  await database.migrate();
  console.log(`migrations applied (${database.kind})`);
} finally {
  await database.close();
}
