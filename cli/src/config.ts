/**
 * Where `atrium login` keeps its session: `credentials.json` in the user's config folder
 * (`ATRIUM_CONFIG_DIR` overrides it). The file holds a bearer token, so it is written with
 * mode 0600 in a 0700 folder, and replaced atomically so a crash never leaves half a file.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import envPaths from "env-paths";
import { z } from "zod";
import { cliErrors } from "./errors.ts";

export const credentialsSchema = z.object({
  controlPlaneUrl: z.string().min(1),
  organization: z.string().min(1),
  username: z.string().min(1),
  token: z.string().min(1),
  /** ISO 8601 time the token stops working. */
  expiresAt: z.string().min(1),
});
export type Credentials = z.output<typeof credentialsSchema>;

export const CREDENTIALS_FILE = "credentials.json";

/** The folder of the CLI's own files: `$ATRIUM_CONFIG_DIR`, else e.g. `~/.config/atrium` on Linux. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.ATRIUM_CONFIG_DIR || envPaths("atrium", { suffix: "" }).config;
}

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), CREDENTIALS_FILE);
}

/** The stored login, or undefined when there is none. A damaged file is an error that says to log in again. */
export function loadCredentials(env: NodeJS.ProcessEnv = process.env): Credentials | undefined {
  const path = credentialsPath(env);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw cliErrors.unreadableCredentials(path, (error as Error).message);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw cliErrors.unreadableCredentials(path, "not JSON");
  }
  const parsed = credentialsSchema.safeParse(json);
  if (!parsed.success) throw cliErrors.unreadableCredentials(path, "fields are missing");
  return parsed.data;
}

/** Stores the login (0600 file in a 0700 folder) and returns the file's path. */
export function saveCredentials(credentials: Credentials, env: NodeJS.ProcessEnv = process.env): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // mkdir leaves an existing folder's mode alone; the token must not be readable by others.
  chmodSync(dir, 0o700);
  const path = join(dir, CREDENTIALS_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(credentialsSchema.parse(credentials), null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600); // the umask may have narrowed the mode, never widened it; be explicit anyway
  renameSync(temporary, path);
  return path;
}

/** Deletes the stored login; true when there was one. */
export function clearCredentials(env: NodeJS.ProcessEnv = process.env): boolean {
  const path = credentialsPath(env);
  try {
    rmSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
