/**
 * `atrium info`: the control plane's runtime version next to the CLI's, and who is logged in where.
 */
import { infoView } from "@atrium/contract/rest";
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { withExample } from "./options.ts";

export function registerInfoCommand(program: Command, context: CliContext): void {
  const info = program
    .command("info")
    .description("show the control plane's version, the CLI's, and the login in use")
    .action(async (_options: unknown, command: Command) => {
      const { api, credentials } = context.session(command);
      const remote = await api.get("/info", infoView);
      context.print(command, {
        controlPlaneVersion: remote.version,
        cliVersion: context.version,
        controlPlaneUrl: api.baseUrl,
        organization: credentials.organization,
        username: credentials.username,
        loginExpiresAt: credentials.expiresAt,
        database: remote.database,
      });
    });
  withExample(info, "atrium info", "atrium info --output json");
}
