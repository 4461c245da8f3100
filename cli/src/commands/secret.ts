/**
 * `atrium secret` (backend secrets, encrypted at rest, write-only) and `atrium admin reencrypt`
 * (moves every stored secret to the active encryption key after a key rotation).
 */
import { reencryptReport, type SecretBody, type SecretView, secretView } from "@atrium/contract/rest";
import type { Command } from "commander";
import type { CliContext } from "../context.ts";
import { readSecret } from "../input.ts";
import type { Column } from "../output.ts";
import { commandGroup, withExample } from "./options.ts";
import { deleteCommand, listCommand } from "./records.ts";

const COLUMNS: Column<SecretView>[] = ["id", "name", "createdAt", "updatedAt"];

export function registerSecretCommands(program: Command, context: CliContext): void {
  const secret = commandGroup(
    program,
    "secret",
    "manage backend secrets: credentials the gateway sends to backends, encrypted at rest",
    "printf '%s' \"$BACKEND_TOKEN\" | atrium secret create petstore-token --value-stdin",
  );

  const create = secret
    .command("create")
    .description(
      "store a backend secret; the value is read from standard input or prompted, never taken as an argument " +
        "(arguments end up in shell history and in `ps`)",
    )
    .argument("<name>", "secret name: lowercase letters, digits, '-' or '.'")
    .option("--value-stdin", "read the value from standard input (also the default when stdin is not a terminal)")
    .action(async (name: string, options: { valueStdin?: boolean }, command: Command) => {
      const { api } = context.session(command);
      const value = await readSecret(
        { stdin: context.io.stdin, prompt: context.io.stderr },
        {
          what: "secret value",
          message: `Value of secret ${name}:`,
          fromStdin: options.valueStdin,
          pipeExample: `printf '%s' "$VALUE" | atrium secret create ${name} --value-stdin`,
        },
      );
      const created = await api.post("/secrets", { name, value } satisfies SecretBody, secretView);
      context.print(command, created);
    });
  withExample(
    create,
    "printf '%s' \"$BACKEND_TOKEN\" | atrium secret create petstore-token --value-stdin",
    "atrium secret create petstore-token    # prompts for the value",
  );

  listCommand(secret, context, {
    description: "list backend secrets (names and ids; values are never returned)",
    path: "/secrets",
    view: secretView,
    columns: COLUMNS,
    empty: "No secrets.",
    examples: ["atrium secret list"],
  });
  deleteCommand(secret, context, {
    description: "delete a backend secret",
    path: "/secrets",
    id: { name: "secret_id", description: "secret id (`atrium secret list`)" },
    done: (id) => `Deleted secret ${id}.`,
    examples: ["atrium secret delete 2c4e6a8b-1d3f-4b5d-9e7f-0a1b2c3d4e5f"],
  });

  const admin = commandGroup(
    program,
    "admin",
    "platform administration (platform admins only)",
    "atrium admin reencrypt",
  );

  const reencrypt = admin
    .command("reencrypt")
    .description(
      "re-encrypt every stored secret with the active key (after distributing a new key set and activating it); " +
        "safe to run again",
    )
    .action(async (_options: unknown, command: Command) => {
      const { api } = context.session(command);
      context.print(command, await api.post("/admin/reencrypt", undefined, reencryptReport));
    });
  withExample(reencrypt, "atrium admin reencrypt --output json");
}
