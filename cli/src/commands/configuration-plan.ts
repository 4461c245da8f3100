/**
 * `atrium config`: Configuration Plans, a Service bound to a backend with the endpoint's
 * settings. An API key is shown once, at creation or renewal: only its hash is stored.
 */
import { type Command, Option } from "commander";
import { segment } from "../api.ts";
import type { CliContext } from "../context.ts";
import type { Column } from "../output.ts";
import { commaList, positiveInteger, withExample } from "./options.ts";

interface PlanView {
  id: string;
  name: string;
  serviceId: string;
  backendEndpoint: string;
  hasApiKey: boolean;
  toolExposureMode?: string;
  backendTimeoutMs?: number;
  includedOperations?: string[];
  excludedOperations?: string[];
  createdAt: string;
  updatedAt: string;
  /** Only in the answers to create and renew. */
  apiKey?: string;
}

const LIST_COLUMNS: Column<PlanView>[] = [
  "id",
  "name",
  { header: "SERVICE", value: (p) => p.serviceId },
  { header: "BACKEND", value: (p) => p.backendEndpoint },
  { header: "API KEY", value: (p) => (p.hasApiKey ? "yes" : "no") },
  { header: "MODE", value: (p) => p.toolExposureMode },
];

/** A plan's rows in reading order; the API puts its settings first. */
const RECORD_ROWS: Column<PlanView>[] = [
  "id",
  "name",
  "serviceId",
  "backendEndpoint",
  "hasApiKey",
  "toolExposureMode",
  "backendTimeoutMs",
  "includedOperations",
  "excludedOperations",
  "headerPolicy",
  "oauth",
  "backendSecret",
  "audit",
  "createdAt",
  "updatedAt",
  "apiKey",
];

const API_KEY_NOTE =
  "Save the API key now: it is shown only this once. Clients send it in the x-atrium-key header; " +
  "`atrium config renew-api-key` replaces it.";

interface CreateOptions {
  serviceId: string;
  backendEndpoint: string;
  apiKey?: boolean;
  include?: string[];
  exclude?: string[];
  timeoutMs?: number;
  exposureMode?: "PerOperation" | "Discovery";
  backendSecret?: string;
  backendSecretHeader?: string;
  backendSecretPrefix?: string;
}

export function registerConfigurationPlanCommands(program: Command, context: CliContext): void {
  const config = program
    .command("config")
    .description("manage Configuration Plans: a Service bound to a backend, with its API key and settings");
  withExample(
    config,
    "atrium config create petstore-prod --serviceId <service_id> --backendEndpoint https://petstore.example.com/api --apiKey",
  );

  const create = config
    .command("create")
    .description("create a Configuration Plan")
    .argument("<name>", "plan name: lowercase letters, digits, '-' or '.'")
    .requiredOption("--serviceId <id>", "the Service it publishes (`atrium service list`)")
    .requiredOption("--backendEndpoint <url>", "base URL of the backend; operation paths are appended to it")
    .option("--apiKey", "protect its endpoints with a generated API key (shown once)")
    .option("--include <opIds...>", "only these operationIds become tools (space- or comma-separated)", commaList)
    .option("--exclude <opIds...>", "these operationIds never become tools", commaList)
    .option("--timeout-ms <n>", "time the backend has to answer, in milliseconds (default 30000)", positiveInteger)
    .addOption(
      new Option(
        "--exposure-mode <mode>",
        "one tool per operation, or three discovery tools for very large APIs",
      ).choices(["PerOperation", "Discovery"]),
    )
    .option("--backend-secret <secret_id>", "a stored secret (`atrium secret create`) the gateway sends to the backend")
    .option("--backend-secret-header <name>", "header carrying the backend secret (default Authorization)")
    .option("--backend-secret-prefix <text>", "text before the secret in that header, e.g. 'Bearer '")
    .action(async (name: string, options: CreateOptions, command: Command) => {
      const { api } = context.session(command);
      const body = {
        name,
        serviceId: options.serviceId,
        backendEndpoint: options.backendEndpoint,
        apiKey: options.apiKey === true,
        ...(options.include ? { includedOperations: options.include } : {}),
        ...(options.exclude ? { excludedOperations: options.exclude } : {}),
        ...(options.timeoutMs ? { backendTimeoutMs: options.timeoutMs } : {}),
        ...(options.exposureMode ? { toolExposureMode: options.exposureMode } : {}),
        ...(options.backendSecret
          ? {
              backendSecret: {
                secretId: options.backendSecret,
                ...(options.backendSecretHeader ? { name: options.backendSecretHeader } : {}),
                ...(options.backendSecretPrefix ? { prefix: options.backendSecretPrefix } : {}),
              },
            }
          : {}),
      };
      const created = await api.post<PlanView>("/configuration-plans", body);
      context.print(command, created, { columns: RECORD_ROWS });
      if (created.apiKey) context.note(command, `\n${API_KEY_NOTE}`);
    });
  withExample(
    create,
    "atrium config create petstore-prod --serviceId 3f2c9a7e-1b4d-4c52-9a8e-2f1d0c6b7a91 --backendEndpoint https://petstore.example.com/api --apiKey --output json",
    "atrium config create petstore-read --serviceId <service_id> --backendEndpoint http://127.0.0.1:8080 --include listPets getPet --timeout-ms 5000",
  );

  const renew = config
    .command("renew-api-key")
    .description("replace a plan's API key; the old key stops working at once (no overlap)")
    .argument("<configuration_plan_id>", "Configuration Plan id")
    .action(async (id: string, _options: unknown, command: Command) => {
      const { api } = context.session(command);
      const renewed = await api.post<PlanView>(`/configuration-plans/${segment(id)}/renew-api-key`);
      context.print(command, renewed, { columns: ["id", "name", "apiKey"] });
      context.note(command, `\n${API_KEY_NOTE}`);
    });
  withExample(renew, "atrium config renew-api-key 6d0f3c1e-8a2b-4f7d-b1c3-9e4a5d6f7a8b --output json");

  const list = config
    .command("list")
    .description("list Configuration Plans")
    .action(async (_options: unknown, command: Command) => {
      const { api } = context.session(command);
      const { items } = await api.get<{ items: PlanView[] }>("/configuration-plans");
      context.print(command, items, {
        columns: LIST_COLUMNS,
        empty: "No configuration plans: create one with `atrium config create`.",
      });
    });
  withExample(list, "atrium config list");

  const get = config
    .command("get")
    .description("show a Configuration Plan with all its settings")
    .argument("<configuration_plan_id>", "Configuration Plan id")
    .action(async (id: string, _options: unknown, command: Command) => {
      const { api } = context.session(command);
      context.print(command, await api.get<PlanView>(`/configuration-plans/${segment(id)}`), { columns: RECORD_ROWS });
    });
  withExample(get, "atrium config get 6d0f3c1e-8a2b-4f7d-b1c3-9e4a5d6f7a8b");

  const remove = config
    .command("delete")
    .description("delete a Configuration Plan (its Expositions must be deleted first)")
    .argument("<configuration_plan_id>", "Configuration Plan id")
    .action(async (id: string, _options: unknown, command: Command) => {
      const { api } = context.session(command);
      await api.delete(`/configuration-plans/${segment(id)}`);
      context.print(command, { id, deleted: true }, { message: `Deleted configuration plan ${id}.` });
    });
  withExample(remove, "atrium config delete 6d0f3c1e-8a2b-4f7d-b1c3-9e4a5d6f7a8b");
}
