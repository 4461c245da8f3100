/**
 * `atrium api-token`: the organization's API tokens, which gateways (and the operator) use to
 * reach the control plane. A token's value is shown once; deleting a token revokes it at once.
 */
import type { Command } from "commander";
import { segment } from "../api.ts";
import type { CliContext } from "../context.ts";
import type { Column } from "../output.ts";
import { positiveInteger, withExample } from "./options.ts";

interface TokenView {
  id: string;
  name: string;
  expiresAt: string;
  createdAt: string;
  /** Only in the answer to create. */
  token?: string;
}

const COLUMNS: Column<TokenView>[] = ["id", "name", { header: "EXPIRES", value: (t) => t.expiresAt }, "createdAt"];

export function registerApiTokenCommands(program: Command, context: CliContext): void {
  const apiToken = program
    .command("api-token")
    .description("manage API tokens: how gateways and the operator authenticate to the control plane");
  withExample(apiToken, "atrium api-token create gateways --validity-days 90");

  const create = apiToken
    .command("create")
    .description("create a Gateway registration token; its value is shown only once")
    .argument("<name>", "token name")
    .requiredOption("--validity-days <n>", "days until the token expires (1 to 3650)", positiveInteger)
    .action(async (name: string, options: { validityDays: number }, command: Command) => {
      const { api } = context.session(command);
      const created = await api.post<TokenView>("/api-tokens", { name, validityDays: options.validityDays });
      context.print(command, created, {
        columns: ["id", "name", "token", { header: "EXPIRES", value: (t) => t.expiresAt }],
      });
      context.note(
        command,
        "\nSave the token now: it is shown only this once. Gateways read it from ATRIUM_CONTROL_PLANE_TOKEN " +
          "(in Kubernetes, a Secret named by gateway.controlPlane.existingSecret).",
      );
    });
  withExample(create, "atrium api-token create gateways --validity-days 90 --output json");

  const list = apiToken
    .command("list")
    .description("list API tokens with their ids (values are never shown again)")
    .action(async (_options: unknown, command: Command) => {
      const { api } = context.session(command);
      const { items } = await api.get<{ items: TokenView[] }>("/api-tokens");
      context.print(command, items, { columns: COLUMNS, empty: "No API tokens." });
    });
  withExample(list, "atrium api-token list");

  const remove = apiToken
    .command("delete")
    .description("revoke an API token at once: gateways using it can no longer register or sync")
    .argument("<token_id>", "API token id (`atrium api-token list`)")
    .action(async (id: string, _options: unknown, command: Command) => {
      const { api } = context.session(command);
      await api.delete(`/api-tokens/${segment(id)}`);
      context.print(command, { id, deleted: true }, { message: `Revoked API token ${id}.` });
    });
  withExample(remove, "atrium api-token delete 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d");
}
