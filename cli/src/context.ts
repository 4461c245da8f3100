/**
 * What every command gets: the streams it talks through, the global settings (`--output`,
 * `--control-plane`) as given to it, the stored login as an API client, and one way to print.
 */
import { type Command, Option } from "commander";
import { type ApiClient, apiClient, normalizeBaseUrl } from "./api.ts";
import { type Credentials, loadCredentials } from "./config.ts";
import { cliErrors } from "./errors.ts";
import { type Column, OUTPUT_FORMATS, type OutputFormat, render } from "./output.ts";
import { CLI_VERSION } from "./version.ts";

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export interface GlobalSettings {
  output: OutputFormat;
  /** `--control-plane`, normalized; undefined when not given (the stored login's URL applies). */
  controlPlane: string | undefined;
}

export interface Session {
  api: ApiClient;
  credentials: Credentials;
}

export interface CommandPrintOptions<T> {
  columns?: Column<T>[];
  empty?: string;
  /** In table mode, this sentence instead of the data (e.g. "Deleted service …"). */
  message?: string;
}

export interface CliContext {
  readonly version: string;
  readonly io: CliIo;
  settings(command: Command): GlobalSettings;
  /** An API client with the stored login; fails with "not logged in" / "expired" (exit code 3). */
  session(command: Command): Session;
  print<T>(command: Command, data: T | T[], options?: CommandPrintOptions<T>): void;
  /** A line for people: on stdout in table mode, on stderr otherwise so JSON/YAML stay parseable. */
  note(command: Command, text: string): void;
  warn(text: string): void;
}

/** The options every command accepts; added to each command that does not define its own. */
export function globalOptions(): Option[] {
  return [
    new Option("-o, --output <format>", "output format").choices(OUTPUT_FORMATS),
    new Option("--control-plane <url>", "control plane URL for this command (default: the one you logged in to)"),
  ];
}

/**
 * An option's value as given to this command or any command before it on the line; an explicit
 * value anywhere beats a command's own default.
 */
function optionValue(command: Command, name: string): unknown {
  let fallback: unknown;
  for (let current: Command | null = command; current; current = current.parent) {
    const value = current.opts()[name];
    if (value === undefined) continue;
    if (current.getOptionValueSource(name) !== "default") return value;
    fallback ??= value;
  }
  return fallback;
}

export function createContext(io: CliIo): CliContext {
  const settings = (command: Command): GlobalSettings => {
    const controlPlane = optionValue(command, "controlPlane") as string | undefined;
    return {
      output: (optionValue(command, "output") as OutputFormat | undefined) ?? "table",
      controlPlane: controlPlane === undefined ? undefined : normalizeBaseUrl(controlPlane),
    };
  };
  return {
    version: CLI_VERSION,
    io,
    settings,
    session(command) {
      const credentials = loadCredentials(io.env);
      if (!credentials) throw cliErrors.notLoggedIn();
      // Checked here, not left to a 401: the message can say when it ran out.
      if (Date.parse(credentials.expiresAt) <= Date.now()) {
        throw cliErrors.loginExpired(credentials.controlPlaneUrl, credentials.expiresAt);
      }
      const baseUrl = settings(command).controlPlane ?? credentials.controlPlaneUrl;
      return { credentials, api: apiClient({ baseUrl, token: credentials.token }) };
    },
    print(command, data, options = {}) {
      const { output } = settings(command);
      if (output === "table" && options.message !== undefined) {
        io.stdout.write(`${options.message}\n`);
        return;
      }
      io.stdout.write(
        render(data, {
          output,
          ...(options.columns ? { columns: options.columns } : {}),
          ...(options.empty ? { empty: options.empty } : {}),
        }),
      );
    },
    note(command, text) {
      (settings(command).output === "table" ? io.stdout : io.stderr).write(`${text}\n`);
    },
    warn(text) {
      io.stderr.write(`warning: ${text}\n`);
    },
  };
}
