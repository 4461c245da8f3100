/**
 * The CLI's version: the one in cli/package.json.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const CLI_VERSION: string = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8"),
).version;
