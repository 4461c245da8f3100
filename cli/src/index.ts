/**
 * @atrium/cli — the `atrium` program and the pieces other code reuses (the REST client, the
 * stored login, output).
 */
export { type ApiClient, type ApiClientOptions, apiClient, normalizeBaseUrl, segment } from "./api.ts";
export {
  type Credentials,
  clearCredentials,
  configDir,
  credentialsPath,
  loadCredentials,
  saveCredentials,
} from "./config.ts";
export type { CliContext, CliIo } from "./context.ts";
export { CliError, cliErrors, EXIT_CODES } from "./errors.ts";
export { type OutputFormat, print, render } from "./output.ts";
export { buildProgram, runCli } from "./program.ts";
