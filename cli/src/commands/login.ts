/**
 * `atrium login` and `atrium logout`: a bearer token for an organization, kept in the config
 * folder (see config.ts) for the other commands, and revoked on the server when logging out.
 */
import { loginAnswer } from "@atrium/contract/rest";
import type { Command } from "commander";
import { apiClient } from "../api.ts";
import { clearCredentials, credentialsPath, loadCredentials, saveCredentials } from "../config.ts";
import type { CliContext } from "../context.ts";
import { CliError } from "../errors.ts";
import { readSecret } from "../input.ts";
import { withExample } from "./options.ts";

/** Where `atrium run` starts the local control plane. */
export const DEFAULT_CONTROL_PLANE = "http://127.0.0.1:5555";

interface LoginOptions {
  organization: string;
  username: string;
  passwordStdin?: boolean;
}

export function registerLoginCommands(program: Command, context: CliContext): void {
  const login = program
    .command("login")
    .description("log in to a control plane for an organization; other commands use the stored token")
    .option("--control-plane <url>", "control plane URL", DEFAULT_CONTROL_PLANE)
    .option("--organization <org>", "organization to log in to", "default")
    .requiredOption("--username <user>", "your user name")
    .option(
      "--password-stdin",
      "read the password from standard input (also the default when stdin is not a terminal; otherwise it is prompted)",
    )
    .action(async (options: LoginOptions, command: Command) => {
      const baseUrl = context.settings(command).controlPlane ?? DEFAULT_CONTROL_PLANE;
      const password = await readSecret(
        { stdin: context.io.stdin, prompt: context.io.stderr },
        {
          what: "password",
          message: `Password for ${options.username} (organization ${options.organization}):`,
          fromStdin: options.passwordStdin,
          pipeExample: `printf '%s' "$PASSWORD" | atrium login --username ${options.username} --password-stdin`,
        },
      );
      const api = apiClient({ baseUrl });
      const session = await api.post(
        "/login",
        { organization: options.organization, username: options.username, password },
        loginAnswer,
      );
      const file = saveCredentials(
        {
          controlPlaneUrl: api.baseUrl,
          organization: options.organization,
          username: options.username,
          token: session.token,
          expiresAt: session.expiresAt,
        },
        context.io.env,
      );
      const result = {
        controlPlaneUrl: api.baseUrl,
        organization: options.organization,
        username: options.username,
        expiresAt: session.expiresAt,
        credentialsFile: file,
      };
      context.print(command, result, {
        message:
          `Logged in to ${api.baseUrl} as ${options.username} (organization ${options.organization}) ` +
          `until ${session.expiresAt}.`,
      });
    });
  withExample(
    login,
    "atrium login --username admin",
    "printf '%s' \"$ATRIUM_PASSWORD\" | atrium login --control-plane https://atrium.example.com --organization acme --username ci --password-stdin",
  );

  const logout = program
    .command("logout")
    .description("revoke the stored login on the control plane and delete it from this machine")
    .action(async (_options: unknown, command: Command) => {
      const credentials = loadCredentials(context.io.env);
      if (!credentials) {
        context.print(command, { loggedOut: false }, { message: "You were not logged in." });
        return;
      }
      const baseUrl = context.settings(command).controlPlane ?? credentials.controlPlaneUrl;
      try {
        await apiClient({ baseUrl, token: credentials.token }).post("/logout");
      } catch (error) {
        // Already expired or revoked is what logging out wants; anything else is worth a word.
        if (!(error instanceof CliError)) throw error;
        if (error.code !== "LOGIN_REJECTED") {
          context.warn(
            `the token could not be revoked (${error.message}); it stays valid until ${credentials.expiresAt}`,
          );
        }
      }
      clearCredentials(context.io.env);
      context.print(
        command,
        { loggedOut: true, controlPlaneUrl: baseUrl, credentialsFile: credentialsPath(context.io.env) },
        { message: `Logged out of ${baseUrl}.` },
      );
    });
  withExample(logout, "atrium logout");
}
