/**
 * `atrium api-token`: the organization's API tokens, which gateways, the operator and
 * automation use to reach the control plane. Each has a role: `gateway` (the default: registers
 * gateways and reads their change stream, optionally bounded to FQDN patterns and required
 * labels), `operator` or `admin`. A token's value is shown once; deleting a token revokes it at
 * once, open change streams included.
 */
import {
  createdToken,
  type NewToken,
  TOKEN_ROLES,
  type TokenRole,
  type TokenView,
  tokenView,
} from "@atrium/contract/rest";
import { type Command, Option } from "commander";
import type { CliContext } from "../context.ts";
import type { Column } from "../output.ts";
import { commaList, commandGroup, labelPair, positiveInteger, withExample } from "./options.ts";
import { deleteCommand, getCommand, listCommand } from "./records.ts";

const TOKEN_ID = { name: "token_id", description: "API token id (`atrium api-token list`)" };

/** What a gateway token lets a registration advertise, in one cell. */
function bounds(token: TokenView): string {
  const parts = [
    ...(token.allowedFqdns ? [`fqdns=${token.allowedFqdns.join(",")}`] : []),
    ...Object.entries(token.requiredLabels ?? {}).map(([key, value]) => `${key}=${value}`),
  ];
  return parts.length ? parts.join(" ") : "-";
}

const COLUMNS: Column<TokenView>[] = [
  "id",
  "name",
  "role",
  { header: "BOUNDS", value: bounds },
  { header: "EXPIRES", value: (t) => t.expiresAt },
  "createdAt",
];

export function registerApiTokenCommands(program: Command, context: CliContext): void {
  const apiToken = commandGroup(
    program,
    "api-token",
    "manage API tokens: how gateways, the operator and automation authenticate to the control plane",
    "atrium api-token create gateways --validity-days 90",
  );

  const create = apiToken
    .command("create")
    .description("create an API token (a gateway registration token by default); its value is shown only once")
    .argument("<name>", "token name")
    .requiredOption("--validity-days <n>", "days until the token expires (1 to 3650)", positiveInteger)
    .addOption(
      new Option("--role <role>", "gateway: registers gateways; operator: the Kubernetes operator; admin: automation")
        .choices(TOKEN_ROLES)
        .default("gateway"),
    )
    .option(
      "--allowed-fqdn <patterns...>",
      "gateway tokens: FQDNs registrations may advertise, exact or *.domain (space- or comma-separated)",
      commaList,
    )
    .option(
      "--required-label <key=value>",
      "gateway tokens: a label every registration must carry; repeat for several",
      labelPair,
    )
    .action(
      async (
        name: string,
        options: {
          validityDays: number;
          role: TokenRole;
          allowedFqdn?: string[];
          requiredLabel?: Record<string, string>;
        },
        command: Command,
      ) => {
        const { api } = context.session(command);
        const body: NewToken = {
          name,
          validityDays: options.validityDays,
          role: options.role,
          ...(options.allowedFqdn ? { allowedFqdns: options.allowedFqdn } : {}),
          ...(options.requiredLabel ? { requiredLabels: options.requiredLabel } : {}),
        };
        const created = await api.post("/api-tokens", body, createdToken);
        context.print(command, created, {
          columns: ["id", "name", "role", "token", { header: "EXPIRES", value: (t) => t.expiresAt }],
        });
        context.note(
          command,
          created.role === "operator"
            ? "\nSave the token now: it is shown only this once. The operator reads it from the Secret that " +
                "ATRIUM_CONTROL_PLANE_TOKEN_SECRET names (docs/kubernetes.md)."
            : "\nSave the token now: it is shown only this once. Gateways read it from ATRIUM_CONTROL_PLANE_TOKEN " +
                "(in Kubernetes, a Secret named by gateway.controlPlane.existingSecret).",
        );
      },
    );
  withExample(
    create,
    "atrium api-token create gateways --validity-days 90 --allowed-fqdn '*.gw.example.com' --required-label region=eu",
    "atrium api-token create k8s-operator --role operator --validity-days 365 --output json",
  );

  listCommand(apiToken, context, {
    description: "list API tokens with their ids, roles and bounds (values are never shown again)",
    path: "/api-tokens",
    view: tokenView,
    columns: COLUMNS,
    empty: "No API tokens.",
    examples: ["atrium api-token list"],
  });
  getCommand(apiToken, context, {
    description: "show one API token: its role, bounds and expiry (never its value)",
    path: "/api-tokens",
    view: tokenView,
    id: TOKEN_ID,
    rows: COLUMNS,
    examples: ["atrium api-token get 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d -o json"],
  });
  deleteCommand(apiToken, context, {
    description: "revoke an API token at once: its open change streams end and it can no longer register or sync",
    path: "/api-tokens",
    id: TOKEN_ID,
    done: (id) => `Revoked API token ${id}.`,
    examples: ["atrium api-token delete 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"],
  });
}
