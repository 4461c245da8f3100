/**
 * `atrium config`: Configuration Plans, a Service bound to a backend with the endpoint's
 * settings. A plan has one client-authentication mode: none, a generated API key (shown once,
 * at creation or renewal: only its hash is stored) or OAuth 2.0 bearer tokens from an issuer.
 */
import type { oauthSettings } from "@atrium/crds";
import { type Command, Option } from "commander";
import type { z } from "zod";
import { segment } from "../api.ts";
import type { CliContext } from "../context.ts";
import { cliErrors } from "../errors.ts";
import type { Column } from "../output.ts";
import { commaList, positiveInteger, scopeList, toolScopePair, withExample } from "./options.ts";

type OAuthSettings = z.output<typeof oauthSettings>;

interface PlanView {
  id: string;
  name: string;
  serviceId: string;
  backendEndpoint: string;
  hasApiKey: boolean;
  oauth?: OAuthSettings;
  audit?: boolean;
  toolExposureMode?: string;
  backendTimeoutMs?: number;
  includedOperations?: string[];
  excludedOperations?: string[];
  createdAt: string;
  updatedAt: string;
  /** Only in the answers to create and renew. */
  apiKey?: string;
}

/** How clients authenticate to the plan's endpoints. */
function clientAuth(plan: PlanView): string {
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
function recordRows(plan: PlanView): Column<PlanView>[] {
  return [
    "id",
    "name",
    "serviceId",
    "backendEndpoint",
    { header: "CLIENT AUTH", value: clientAuth },
    ...(plan.oauth ? oauthRows(plan.oauth) : []),
    { header: "AUDIT", value: (p) => (p.audit ? "on (an event per authentication and tool call)" : "off") },
    "toolExposureMode",
    "backendTimeoutMs",
    "includedOperations",
    "excludedOperations",
    "headerPolicy",
    "backendSecret",
    "createdAt",
    "updatedAt",
    "apiKey",
  ];
}

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
  oauthIssuer?: string;
  oauthJwksUri?: string;
  oauthAudience?: string;
  oauthResource?: string;
  oauthScope?: string[];
  oauthToolScope?: Record<string, string[]>;
  audit?: boolean;
}

/** The flags that only mean something with --oauth-issuer, by option key. */
const OAUTH_DETAIL_FLAGS = {
  oauthJwksUri: "--oauth-jwks-uri",
  oauthAudience: "--oauth-audience",
  oauthResource: "--oauth-resource",
  oauthScope: "--oauth-scope",
  oauthToolScope: "--oauth-tool-scope",
} as const;

/**
 * The plan's `oauth` settings from the flags, or none. Refuses, before any request, what the
 * server would refuse too: both auth modes at once, OAuth details without an issuer.
 */
function oauthOf(options: CreateOptions): OAuthSettings | undefined {
  if (options.apiKey && options.oauthIssuer) {
    throw cliErrors.conflictingOptions(
      "--apiKey",
      "--oauth-issuer",
      "a plan has one client authentication mode, an API key (x-atrium-key header) or OAuth bearer tokens; keep one",
    );
  }
  if (!options.oauthIssuer) {
    const given = Object.entries(OAUTH_DETAIL_FLAGS).find(([key]) => options[key as keyof CreateOptions] !== undefined);
    if (given) {
      throw cliErrors.optionNeedsAnother(
        given[1],
        "--oauth-issuer <url>",
        "OAuth settings apply to a plan protected by OAuth; add the issuer whose tokens it accepts",
      );
    }
    return undefined;
  }
  return {
    issuer: options.oauthIssuer,
    ...(options.oauthJwksUri ? { jwksUri: options.oauthJwksUri } : {}),
    ...(options.oauthAudience ? { audience: options.oauthAudience } : {}),
    ...(options.oauthResource ? { resource: options.oauthResource } : {}),
    ...(options.oauthScope?.length ? { requiredScopes: options.oauthScope } : {}),
    ...(options.oauthToolScope ? { toolScopes: options.oauthToolScope } : {}),
  };
}

export function registerConfigurationPlanCommands(program: Command, context: CliContext): void {
  const config = program
    .command("config")
    .description("manage Configuration Plans: a Service bound to a backend, with its API key and settings");
  withExample(
    config,
    "atrium config create petstore-prod --serviceId <service_id> --backendEndpoint https://petstore.example.com/api --apiKey",
    "atrium config create petstore-sso --serviceId <service_id> --backendEndpoint https://petstore.example.com/api --oauth-issuer https://login.example.com --oauth-scope pets:read --audit",
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
    .option(
      "--oauth-issuer <url>",
      "protect its endpoints with OAuth 2.0 bearer tokens from this issuer (not with --apiKey)",
    )
    .option("--oauth-jwks-uri <url>", "where the issuer's signing keys are (default: from the issuer's metadata)")
    .option("--oauth-audience <aud>", "audience tokens must carry (default: the endpoint's resource URL)")
    .option("--oauth-resource <url>", "the endpoint's protected-resource identifier (default: the URL clients call)")
    .option("--oauth-scope <scopes...>", "scopes every token needs; repeat, or space- or comma-separate", scopeList)
    .option(
      "--oauth-tool-scope <tool=scopes>",
      "scopes a token needs for one tool, e.g. deletePet=pets:write; repeat for several tools",
      toolScopePair,
    )
    .option("--audit", "emit an audit event for each authentication decision and tool call")
    .action(async (name: string, options: CreateOptions, command: Command) => {
      const oauth = oauthOf(options);
      const { api } = context.session(command);
      const body = {
        name,
        serviceId: options.serviceId,
        backendEndpoint: options.backendEndpoint,
        apiKey: options.apiKey === true,
        ...(oauth ? { oauth } : {}),
        ...(options.audit ? { audit: true } : {}),
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
      context.print(command, created, { columns: recordRows(created) });
      if (created.apiKey) context.note(command, `\n${API_KEY_NOTE}`);
    });
  withExample(
    create,
    "atrium config create petstore-prod --serviceId 3f2c9a7e-1b4d-4c52-9a8e-2f1d0c6b7a91 --backendEndpoint https://petstore.example.com/api --apiKey --output json",
    "atrium config create petstore-read --serviceId <service_id> --backendEndpoint http://127.0.0.1:8080 --include listPets getPet --timeout-ms 5000",
    "atrium config create petstore-sso --serviceId <service_id> --backendEndpoint https://petstore.example.com/api --oauth-issuer https://login.example.com --oauth-audience https://mcp.example.com/petstore --oauth-scope pets:read --oauth-tool-scope deletePet=pets:write --audit",
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
      const plan = await api.get<PlanView>(`/configuration-plans/${segment(id)}`);
      context.print(command, plan, { columns: recordRows(plan) });
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
