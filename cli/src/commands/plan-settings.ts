/**
 * The flags `atrium config create` and `config update` share, and how they become a plan's
 * settings. Client authentication is one mode (none, an API key or OAuth bearer tokens): the
 * flags that would give a plan both are refused here, before any request, with what to do.
 */
import { type CircuitBreakerSettings, type oauthSettings, type planLimits, toolExposureMode } from "@atrium/crds";
import { type Command, Option } from "commander";
import type { z } from "zod";
import { cliErrors } from "../errors.ts";
import {
  commaList,
  positiveInteger,
  positiveNumber,
  scopeList,
  type ToolLimitFlag,
  toolLimitPair,
  toolScopePair,
} from "./options.ts";
import { readSettingsFile } from "./settings-file.ts";

export type OAuthSettings = z.output<typeof oauthSettings>;
type PlanLimits = z.output<typeof planLimits>;

export interface PlanSettingFlags {
  /** --apiKey (true) or, on update, --no-apiKey (false). */
  apiKey?: boolean;
  include?: string[];
  exclude?: string[];
  timeoutMs?: number;
  exposureMode?: z.output<typeof toolExposureMode>;
  oauthIssuer?: string;
  oauthJwksUri?: string;
  oauthAudience?: string;
  oauthResource?: string;
  oauthScope?: string[];
  oauthToolScope?: Record<string, string[]>;
  /** On update only: --no-oauth (false). */
  oauth?: boolean;
  /** --audit (true) or, on update, --no-audit (false). */
  audit?: boolean;
  /** --elicit-missing-arguments (true) or, on update, --no-elicit-missing-arguments (false). */
  elicitMissingArguments?: boolean;
  /** --circuit-breaker (true) or --no-circuit-breaker (false). */
  circuitBreaker?: boolean;
  circuitBreakerFailures?: number;
  circuitBreakerCoolDown?: number;
  rateLimit?: number;
  rateBurst?: number;
  maxConcurrentCalls?: number;
  limitPer?: PlanLimits["per"];
  toolLimit?: Record<string, ToolLimitFlag>;
  /** On update only: --no-limits (false). */
  limits?: boolean;
  /** A YAML or JSON file of toolOverrides; on update, --no-tool-overrides (false). */
  toolOverrides?: string | false;
  /** On update, --no-max-result-bytes (false). */
  maxResultBytes?: number | false;
  /** A YAML or JSON file of toolOutputFilters; on update, --no-tool-output-filters (false). */
  toolOutputFilters?: string | false;
  /** graphql.selectionDepth (a plan on a GraphQL Service). */
  graphqlSelectionDepth?: number;
}

/** Each limits flag: its option key and its field of `limits`. */
const LIMIT_FLAGS = [
  { key: "rateLimit", field: "requestsPerSecond", flag: "--rate-limit" },
  { key: "rateBurst", field: "burst", flag: "--rate-burst" },
  { key: "maxConcurrentCalls", field: "concurrentCalls", flag: "--max-concurrent-calls" },
  { key: "limitPer", field: "per", flag: "--limit-per" },
  { key: "toolLimit", field: "tools", flag: "--tool-limit" },
] as const;

/** Each OAuth flag: its option key, its plan field, and how it is written. */
const OAUTH_FLAGS = [
  { key: "oauthIssuer", field: "issuer", flag: "--oauth-issuer" },
  { key: "oauthJwksUri", field: "jwksUri", flag: "--oauth-jwks-uri" },
  { key: "oauthAudience", field: "audience", flag: "--oauth-audience" },
  { key: "oauthResource", field: "resource", flag: "--oauth-resource" },
  { key: "oauthScope", field: "requiredScopes", flag: "--oauth-scope" },
  { key: "oauthToolScope", field: "toolScopes", flag: "--oauth-tool-scope" },
] as const;

const ONE_MODE = "a plan has one client authentication mode, an API key (x-atrium-key header) or OAuth bearer tokens";

/** The options both commands take; `update` adds the --no-… forms that remove a setting. */
export function addPlanSettingOptions(command: Command, mode: "create" | "update"): Command {
  const creating = mode === "create";
  command.option(
    "--apiKey",
    creating
      ? "protect its endpoints with a generated API key (shown once)"
      : "protect its endpoints with a generated API key (shown once; a key it has is kept)",
  );
  if (!creating) command.option("--no-apiKey", "remove its API key (clients' keys stop working at once)");
  command
    .option(
      "--oauth-issuer <url>",
      "protect its endpoints with OAuth 2.0 bearer tokens from this issuer (not with --apiKey)",
    )
    .option("--oauth-jwks-uri <url>", "where the issuer's signing keys are (default: from the issuer's metadata)")
    .option("--oauth-audience <aud>", "audience tokens must carry (default: the endpoint's resource URL)")
    .option("--oauth-resource <url>", "the endpoint's protected-resource identifier (default: the URL clients call)")
    .option(
      "--oauth-scope <scopes...>",
      `scopes every token needs; repeat, or space- or comma-separate${creating ? "" : " (replaces the plan's)"}`,
      scopeList,
    )
    .option(
      "--oauth-tool-scope <tool=scopes>",
      `scopes a token needs for one tool, e.g. deletePet=pets:write; repeat for several tools${creating ? "" : " (replaces the plan's)"}`,
      toolScopePair,
    );
  if (!creating) command.option("--no-oauth", "remove its OAuth protection");
  command.option("--audit", "emit an audit event for each authentication decision and tool call");
  if (!creating) command.option("--no-audit", "stop emitting audit events");
  command.option(
    "--elicit-missing-arguments",
    "ask the user (2026-07-28, form elicitation) for required arguments a call lacks, instead of refusing it",
  );
  if (!creating) command.option("--no-elicit-missing-arguments", "refuse calls lacking required arguments");
  command
    .option(
      "--circuit-breaker",
      "fail calls fast for a cool-down when the backend keeps failing to connect or answer in time (on by default)",
    )
    .option("--no-circuit-breaker", "always call the backend, however often it failed")
    .option(
      "--circuit-breaker-failures <n>",
      "consecutive connection failures or timeouts that open the breaker (default 5, at most 1000)",
      positiveInteger,
    )
    .option(
      "--circuit-breaker-cool-down <seconds>",
      "how long an open breaker fails calls fast before one trial call (default 30, at most 3600)",
      positiveInteger,
    );
  command
    .option(
      "--rate-limit <per-second>",
      "calls per second each gateway replica admits on average (decimals allowed: 0.5 is one every 2 s); " +
        "past it HTTP 429 with Retry-After",
      positiveNumber,
    )
    .option(
      "--rate-burst <n>",
      "calls admitted back to back before --rate-limit applies (default: the rate rounded up)",
      positiveInteger,
    )
    .option(
      "--max-concurrent-calls <n>",
      "calls waiting for the backend at once on each gateway replica; past it HTTP 429",
      positiveInteger,
    )
    .addOption(
      new Option(
        "--limit-per <who>",
        "plan: one budget for all callers (default); caller: one per OAuth token subject (OAuth plans only)",
      ).choices(["plan", "caller"]),
    )
    .option(
      "--tool-limit <tool=limits>",
      "one tool's own limits, e.g. createPet=rate=2,burst=4,concurrent=1; past them its result is an error saying " +
        `when to retry; repeat for several tools${creating ? "" : " (replaces the plan's)"}`,
      toolLimitPair,
    );
  if (!creating) command.option("--no-limits", "remove its rate limits and concurrency caps");
  command
    .option(
      "--tool-overrides <file>",
      "a YAML or JSON file: tool name → name, title, description, annotations, fixedArguments, maxResultBytes" +
        (creating ? "" : " (replaces the plan's)"),
    )
    .option(
      "--max-result-bytes <n>",
      "budget of a tool result in bytes (at least 1024): over it, the longest lists are trimmed from their end",
      positiveInteger,
    );
  if (!creating)
    command
      .option("--no-tool-overrides", "remove its tool overrides")
      .option("--no-max-result-bytes", "remove its result budget");
  command.option(
    "--tool-output-filters <file>",
    "a YAML or JSON file: tool name → output filter (retain: JSON Pointers to keep, patches: RFC 6902 operations, " +
      "format: json or toon)" +
      (creating ? "" : " (replaces the plan's)"),
  );
  if (!creating) command.option("--no-tool-output-filters", "remove its output filters");
  command.option(
    "--graphql-selection-depth <n>",
    "a GraphQL Service's plan: object levels of each tool's generated selection, 1 to 5 (default 2)",
    positiveInteger,
  );
  return command
    .option("--include <opIds...>", "only these operationIds become tools (space- or comma-separated)", commaList)
    .option("--exclude <opIds...>", "these operationIds never become tools", commaList)
    .option("--timeout-ms <n>", "time the backend has to answer, in milliseconds (default 30000)", positiveInteger)
    .addOption(
      new Option(
        "--exposure-mode <mode>",
        "one tool per operation, or three discovery tools for very large APIs",
      ).choices(toolExposureMode.options),
    );
}

/** The fields a table of flags gives, and the first flag given (for messages). */
function fieldsGiven(
  flags: PlanSettingFlags,
  table: readonly { key: keyof PlanSettingFlags; field: string; flag: string }[],
): { fields: Record<string, unknown>; first?: string } {
  const fields: Record<string, unknown> = {};
  let first: string | undefined;
  for (const { key, field, flag } of table) {
    const value = flags[key];
    if (value === undefined) continue;
    fields[field] = value;
    first ??= flag;
  }
  return { fields, ...(first ? { first } : {}) };
}

/** The OAuth fields the flags give, and the first flag given. */
function oauthFlagsGiven(flags: PlanSettingFlags): { fields: Partial<OAuthSettings>; first?: string } {
  const { fields, first } = fieldsGiven(flags, OAUTH_FLAGS);
  return { fields: fields as Partial<OAuthSettings>, ...(first ? { first } : {}) };
}

function needsIssuer(flag: string): Error {
  return cliErrors.optionNeedsAnother(
    flag,
    "--oauth-issuer <url>",
    "OAuth settings apply to a plan protected by OAuth; add the issuer whose tokens it accepts",
  );
}

/** A new plan's client authentication from the flags. */
export function createdClientAuth(flags: PlanSettingFlags): { apiKey: boolean; oauth?: OAuthSettings } {
  if (flags.apiKey && flags.oauthIssuer)
    throw cliErrors.conflictingOptions("--apiKey", "--oauth-issuer", `${ONE_MODE}; keep one`);
  const { fields, first } = oauthFlagsGiven(flags);
  if (first && !flags.oauthIssuer) throw needsIssuer(first);
  return { apiKey: flags.apiKey === true, ...(flags.oauthIssuer ? { oauth: fields as OAuthSettings } : {}) };
}

/**
 * A plan's client authentication after an update: the flags given change the current one, OAuth
 * fields merge into the plan's. Switching modes takes the --no-… flag of the mode left, so that
 * a key or an issuer is never dropped by accident.
 */
export function updatedClientAuth(
  current: { hasApiKey: boolean; oauth?: OAuthSettings },
  flags: PlanSettingFlags,
): { apiKey: boolean; oauth?: OAuthSettings } {
  const { fields, first } = oauthFlagsGiven(flags);
  if (flags.oauth === false && first) throw cliErrors.conflictingOptions("--no-oauth", first, "keep one");
  if (flags.apiKey === true && flags.oauthIssuer) {
    throw cliErrors.conflictingOptions("--apiKey", "--oauth-issuer", `${ONE_MODE}; keep one`);
  }
  const base = flags.oauth === false ? undefined : current.oauth;
  const oauth = first ? ({ ...base, ...fields } as OAuthSettings) : base;
  if (oauth && !oauth.issuer && first) throw needsIssuer(first);
  const apiKey = flags.apiKey ?? current.hasApiKey;
  if (apiKey && oauth) {
    throw flags.apiKey
      ? cliErrors.conflictingOptions("--apiKey", "the plan's OAuth protection", `${ONE_MODE}; add --no-oauth to switch`)
      : cliErrors.conflictingOptions(
          first ?? "the plan's OAuth protection",
          "its API key",
          `${ONE_MODE}; add --no-apiKey to switch${first ? "" : ", or --no-oauth to keep the key"}`,
        );
  }
  return { apiKey, ...(oauth ? { oauth } : {}) };
}

/** The breaker's fields the flags give, over `current` (an updated plan's); nothing when no flag names it. */
function circuitBreakerFromFlags(flags: PlanSettingFlags, current: CircuitBreakerSettings | undefined) {
  const given = flags.circuitBreakerFailures
    ? "--circuit-breaker-failures"
    : flags.circuitBreakerCoolDown
      ? "--circuit-breaker-cool-down"
      : undefined;
  if (flags.circuitBreaker === false && given) {
    throw cliErrors.conflictingOptions("--no-circuit-breaker", given, "a breaker that is off never opens; keep one");
  }
  const fields = {
    ...(flags.circuitBreaker !== undefined ? { enabled: flags.circuitBreaker } : {}),
    ...(flags.circuitBreakerFailures ? { consecutiveFailures: flags.circuitBreakerFailures } : {}),
    ...(flags.circuitBreakerCoolDown ? { coolDownSeconds: flags.circuitBreakerCoolDown } : {}),
  };
  return Object.keys(fields).length > 0 ? { circuitBreaker: { ...current, ...fields } } : {};
}

/** The limits the flags give, merged over `current` (an updated plan's); nothing when no flag names them. */
function limitsFromFlags(flags: PlanSettingFlags, current: PlanLimits | undefined) {
  const { fields, first } = fieldsGiven(flags, LIMIT_FLAGS);
  if (flags.limits === false) {
    if (first) throw cliErrors.conflictingOptions("--no-limits", first, "keep one");
    return { limits: undefined };
  }
  return first ? { limits: { ...current, ...fields } } : {};
}

/**
 * The other settings the flags give (absent ones left out, so an update keeps the plan's); the
 * breaker's and the limits' fields merge into `current`'s.
 */
export function settingsFromFlags(
  flags: PlanSettingFlags,
  current?: { circuitBreaker?: CircuitBreakerSettings; limits?: PlanLimits },
): Record<string, unknown> {
  return {
    ...circuitBreakerFromFlags(flags, current?.circuitBreaker),
    ...limitsFromFlags(flags, current?.limits),
    ...(flags.audit !== undefined ? { audit: flags.audit } : {}),
    ...(flags.elicitMissingArguments !== undefined ? { elicitMissingArguments: flags.elicitMissingArguments } : {}),
    ...(flags.include ? { includedOperations: flags.include } : {}),
    ...(flags.exclude ? { excludedOperations: flags.exclude } : {}),
    ...(flags.timeoutMs ? { backendTimeoutMs: flags.timeoutMs } : {}),
    ...(flags.exposureMode ? { toolExposureMode: flags.exposureMode } : {}),
    ...(flags.toolOverrides !== undefined
      ? {
          toolOverrides:
            flags.toolOverrides === false ? undefined : readSettingsFile(flags.toolOverrides, "--tool-overrides"),
        }
      : {}),
    ...(flags.maxResultBytes !== undefined
      ? { maxResultBytes: flags.maxResultBytes === false ? undefined : flags.maxResultBytes }
      : {}),
    ...(flags.graphqlSelectionDepth !== undefined ? { graphql: { selectionDepth: flags.graphqlSelectionDepth } } : {}),
    ...(flags.toolOutputFilters !== undefined
      ? {
          toolOutputFilters:
            flags.toolOutputFilters === false
              ? undefined
              : readSettingsFile(flags.toolOutputFilters, "--tool-output-filters"),
        }
      : {}),
  };
}
