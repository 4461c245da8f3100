/**
 * `atrium config`: Configuration Plans, a Service bound to a backend with the endpoint's
 * settings. A plan has one client-authentication mode: none, a generated API key (shown once,
 * at creation or renewal: only its hash is stored) or OAuth 2.0 bearer tokens from an issuer.
 */
import { type PlanBody, type PlanWithKey, planView, planWithKey } from "@atrium/contract/rest";
import type { Command } from "commander";
import { segment } from "../api.ts";
import type { CliContext } from "../context.ts";
import type { Column } from "../output.ts";
import {
  addBackendCredentialOptions,
  type BackendCredentialFlags,
  backendSecretFromFlags,
} from "./backend-credentials.ts";
import { addBackendTlsOptions, type BackendTlsFlags, backendTlsFromFlags, backendTlsText } from "./backend-tls.ts";
import { commandGroup, withExample } from "./options.ts";
import {
  addPlanSettingOptions,
  createdClientAuth,
  type OAuthSettings,
  type PlanSettingFlags,
  settingsFromFlags,
  updatedClientAuth,
} from "./plan-settings.ts";
import { deleteCommand, getCommand, listCommand } from "./records.ts";
import { maxResultBytesText, toolOverridesText } from "./tool-overrides-text.ts";

/** A plan as shown; `apiKey` only in the answers to create, update and renew. */
type PlanView = PlanWithKey;
const PLAN_ID = { name: "configuration_plan_id", description: "Configuration Plan id" };

/** How clients authenticate to the plan's endpoints. */
function clientAuth(plan: PlanView): string {
  // Stored before one mode was the rule; `config update` fixes it.
  if (plan.oauth && plan.hasApiKey) return "api key + oauth (keep one: config update --no-apiKey or --no-oauth)";
  if (plan.oauth) return "oauth";
  return plan.hasApiKey ? "api key" : "none";
}

const LIST_COLUMNS: Column<PlanView>[] = [
  "id",
  "name",
  { header: "SERVICE", value: (p) => p.serviceId },
  { header: "BACKEND", value: (p) => p.backendEndpoint },
  { header: "AUTH", value: clientAuth },
  { header: "AUDIT", value: (p) => (p.audit ? "on" : "off") },
  { header: "MODE", value: (p) => p.toolExposureMode },
];

/** The OAuth rows, each with what applies when a setting is absent. */
function oauthRows(oauth: OAuthSettings): Column<PlanView>[] {
  // Sorted: the database keeps no key order.
  const toolScopes = Object.entries(oauth.toolScopes ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return [
    { header: "OAUTH ISSUER", value: () => oauth.issuer },
    { header: "OAUTH JWKS URI", value: () => oauth.jwksUri ?? "(from the issuer's metadata)" },
    { header: "OAUTH AUDIENCE", value: () => oauth.audience ?? "(the endpoint's resource URL)" },
    { header: "OAUTH RESOURCE", value: () => oauth.resource ?? "(the endpoint URL clients call)" },
    { header: "REQUIRED SCOPES", value: () => (oauth.requiredScopes?.length ? oauth.requiredScopes.join(" ") : "-") },
    {
      header: "TOOL SCOPES",
      value: () =>
        toolScopes.length ? toolScopes.map(([tool, scopes]) => `${tool}=${scopes.join(" ")}`).join("; ") : "-",
    },
  ];
}

/** A plan's rows in reading order: identity, client authentication, then the other settings. */
function circuitBreakerRow({ circuitBreaker: breaker }: PlanView): string {
  return breaker.enabled
    ? `on (opens after ${breaker.consecutiveFailures} failures in a row, for ${breaker.coolDownSeconds} s)`
    : "off";
}

/** Rates and caps in a few words: `10/s (burst 20), 5 at once`. */
function budgetText(budget: { requestsPerSecond?: number; burst?: number; concurrentCalls?: number }): string {
  const rate =
    budget.requestsPerSecond === undefined
      ? []
      : [`${budget.requestsPerSecond}/s${budget.burst === undefined ? "" : ` (burst ${budget.burst})`}`];
  const concurrent = budget.concurrentCalls === undefined ? [] : [`${budget.concurrentCalls} at once`];
  return [...rate, ...concurrent].join(", ");
}

function limitsRow({ limits }: PlanView): string {
  if (!limits) return "none";
  const plan = budgetText(limits);
  // By name: the database does not keep the order they were given in.
  const tools = Object.entries(limits.tools ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tool, budget]) => `${tool}: ${budgetText(budget)}`);
  return `${[...(plan ? [plan] : []), ...tools].join("; ")} (per ${limits.per}, on each gateway replica)`;
}

function recordRows(plan: PlanView): Column<PlanView>[] {
  return [
    "id",
    "name",
    "serviceId",
    "backendEndpoint",
    { header: "CLIENT AUTH", value: clientAuth },
    ...(plan.oauth ? oauthRows(plan.oauth) : []),
    { header: "AUDIT", value: (p) => (p.audit ? "on (an event per authentication and tool call)" : "off") },
    {
      header: "MISSING ARGUMENTS",
      value: (p) => (p.elicitMissingArguments ? "asked of the user (2026-07-28 form elicitation)" : "refused"),
    },
    "toolExposureMode",
    "backendTimeoutMs",
    { header: "CIRCUIT BREAKER", value: circuitBreakerRow },
    { header: "LIMITS", value: limitsRow },
    { header: "TOOL OVERRIDES", value: toolOverridesText },
    { header: "MAX RESULT BYTES", value: maxResultBytesText },
    "includedOperations",
    "excludedOperations",
    "headerPolicy",
    "backendSecret",
    { header: "BACKEND TLS", value: backendTlsText },
    "createdAt",
    "updatedAt",
    "apiKey",
  ];
}

const API_KEY_NOTE =
  "Save the API key now: it is shown only this once. Clients send it in the x-atrium-key header; " +
  "`atrium config renew-api-key` replaces it.";

interface CreateOptions extends PlanSettingFlags, BackendCredentialFlags, BackendTlsFlags {
  serviceId: string;
  backendEndpoint: string;
}

interface UpdateOptions extends PlanSettingFlags {
  backendEndpoint?: string;
}

/** What a plan record holds besides its settings: left out of the body that replaces them. */
function settingsOfRecord(plan: PlanView): Omit<PlanView, "id" | "hasApiKey" | "createdAt" | "updatedAt" | "apiKey"> {
  const { id: _id, hasApiKey: _hasApiKey, createdAt: _created, updatedAt: _updated, apiKey: _key, ...rest } = plan;
  return rest;
}

export function registerConfigurationPlanCommands(program: Command, context: CliContext): void {
  const config = commandGroup(
    program,
    "config",
    "manage Configuration Plans: a Service bound to a backend, with its API key and settings",
    "atrium config create petstore-prod --serviceId <service_id> --backendEndpoint https://petstore.example.com/api --apiKey",
    "atrium config create petstore-sso --serviceId <service_id> --backendEndpoint https://petstore.example.com/api --oauth-issuer https://login.example.com --oauth-scope pets:read --audit",
  );

  const create = config
    .command("create")
    .description("create a Configuration Plan")
    .argument("<name>", "plan name: lowercase letters, digits, '-' or '.'")
    .requiredOption("--serviceId <id>", "the Service it publishes (`atrium service list`)")
    .requiredOption("--backendEndpoint <url>", "base URL of the backend; operation paths are appended to it");
  addBackendTlsOptions(addBackendCredentialOptions(addPlanSettingOptions(create, "create"))).action(
    async (name: string, options: CreateOptions, command: Command) => {
      const auth = createdClientAuth(options);
      const backendSecret = backendSecretFromFlags(options);
      const backendTls = await backendTlsFromFlags(options);
      const { api } = context.session(command);
      const body: PlanBody = {
        name,
        serviceId: options.serviceId,
        backendEndpoint: options.backendEndpoint,
        ...auth,
        ...settingsFromFlags(options),
        ...(backendSecret ? { backendSecret } : {}),
        ...(backendTls ? { backendTls } : {}),
      };
      const created = await api.post("/configuration-plans", body, planWithKey);
      context.print(command, created, { columns: recordRows(created) });
      if (created.apiKey) context.note(command, `\n${API_KEY_NOTE}`);
      for (const warning of created.warnings ?? []) context.note(command, `warning: ${warning}`);
    },
  );
  withExample(
    create,
    "atrium config create petstore-prod --serviceId 3f2c9a7e-1b4d-4c52-9a8e-2f1d0c6b7a91 --backendEndpoint https://petstore.example.com/api --apiKey --output json",
    "atrium config create petstore-read --serviceId <service_id> --backendEndpoint http://127.0.0.1:8080 --include listPets getPet --timeout-ms 5000",
    "atrium config create petstore-sso --serviceId <service_id> --backendEndpoint https://petstore.example.com/api --oauth-issuer https://login.example.com --oauth-audience https://mcp.example.com/petstore --oauth-scope pets:read --oauth-tool-scope deletePet=pets:write --audit",
    "atrium config create petstore-mtls --serviceId <service_id> --backendEndpoint https://petstore.internal/api --backend-ca-file ca.crt --backend-client-cert <cert_secret_id> --backend-client-key <key_secret_id> --backend-server-name petstore.internal",
  );

  const update = config
    .command("update")
    .description("change a Configuration Plan's settings; what no flag names stays as it is")
    .argument("<configuration_plan_id>", "Configuration Plan id")
    .option("--backendEndpoint <url>", "base URL of the backend; operation paths are appended to it");
  addPlanSettingOptions(update, "update").action(async (id: string, options: UpdateOptions, command: Command) => {
    const { api } = context.session(command);
    const path = `/configuration-plans/${segment(id)}`;
    const current = await api.get(path, planView);
    const auth = updatedClientAuth(current, options);
    const { oauth: _oauth, ...kept } = settingsOfRecord(current);
    const body: PlanBody = {
      ...kept,
      ...(options.backendEndpoint ? { backendEndpoint: options.backendEndpoint } : {}),
      ...auth,
      ...settingsFromFlags(options, current),
    };
    const updated = await api.put(path, body, planWithKey);
    context.print(command, updated, { columns: recordRows(updated) });
    if (updated.apiKey) context.note(command, `\n${API_KEY_NOTE}`);
    for (const warning of updated.warnings ?? []) context.note(command, `warning: ${warning}`);
  });
  withExample(
    update,
    "atrium config update 6d0f3c1e-8a2b-4f7d-b1c3-9e4a5d6f7a8b --no-apiKey --oauth-issuer https://login.example.com --oauth-scope mcp:use",
    "atrium config update 6d0f3c1e-8a2b-4f7d-b1c3-9e4a5d6f7a8b --oauth-tool-scope deletePet=pets:write --audit",
    "atrium config update 6d0f3c1e-8a2b-4f7d-b1c3-9e4a5d6f7a8b --rate-limit 20 --rate-burst 40 --max-concurrent-calls 10 --tool-limit createPet=rate=1",
  );

  const renew = config
    .command("renew-api-key")
    .description("replace a plan's API key; the old key stops working at once (no overlap)")
    .argument(`<${PLAN_ID.name}>`, PLAN_ID.description)
    .action(async (id: string, _options: unknown, command: Command) => {
      const { api } = context.session(command);
      const renewed = await api.post(`/configuration-plans/${segment(id)}/renew-api-key`, undefined, planWithKey);
      context.print(command, renewed, { columns: ["id", "name", "apiKey"] });
      context.note(command, `\n${API_KEY_NOTE}`);
    });
  withExample(renew, "atrium config renew-api-key 6d0f3c1e-8a2b-4f7d-b1c3-9e4a5d6f7a8b --output json");

  listCommand(config, context, {
    description: "list Configuration Plans",
    path: "/configuration-plans",
    view: planView,
    columns: LIST_COLUMNS,
    empty: "No configuration plans: create one with `atrium config create`.",
    examples: ["atrium config list"],
  });
  getCommand(config, context, {
    description: "show a Configuration Plan with all its settings",
    path: "/configuration-plans",
    view: planView,
    id: PLAN_ID,
    rows: recordRows,
    examples: ["atrium config get 6d0f3c1e-8a2b-4f7d-b1c3-9e4a5d6f7a8b"],
  });
  deleteCommand(config, context, {
    description: "delete a Configuration Plan (its Expositions must be deleted first)",
    path: "/configuration-plans",
    id: PLAN_ID,
    done: (id) => `Deleted configuration plan ${id}.`,
    examples: ["atrium config delete 6d0f3c1e-8a2b-4f7d-b1c3-9e4a5d6f7a8b"],
  });
}
