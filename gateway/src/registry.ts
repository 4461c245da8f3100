/**
 * The Expositions a gateway serves, compiled once when they arrive (tools, validators,
 * templates) and looked up in O(1) by id or by organization/name. Updates build new maps and
 * swap them in one assignment: a request holds the Exposition it looked up, so it sees the old
 * or the new one, never half of each.
 *
 * Each Exposition is validated and compiled on its own: one the contract refuses, that fails to
 * compile, whose Service is of a kind the gateway does not call or whose operations carry a key
 * it does not know (a newer release's call recipe), whose backend secret names an environment
 * variable the gateway does not allow, or
 * whose backend secret is elicited from each user while the gateway has no cluster key, or whose
 * backend TLS names a file outside the allowed directories or carries a PEM that does not parse, is not
 * served (an older version of it neither: fail closed) and is kept as a refusal, so the others
 * are served and the refusal can be reported.
 */
import { createHash } from "node:crypto";
import {
  type CompiledExposition,
  compiledExposition,
  NormalizedOperation,
  PROBLEM_MESSAGE_MAX,
} from "@atrium/contract";
import { serviceKind } from "@atrium/crds";
import { z } from "zod";
import { backendTlsRefusal, DEFAULT_TLS_FILE_DIRS } from "./backend-tls.ts";
import { asksEachUser } from "./elicitation/flow.ts";
import { DEFAULT_ENV_ALLOW, type EnvPolicy, envPolicy } from "./env-policy.ts";
import { ExpositionLimiter } from "./limits.ts";
import { type CompiledTemplate, compileTemplates } from "./mcp/resources.ts";
import { SerializedResult } from "./mcp/serialized.ts";
import { compileToolset } from "./tools/compile.ts";
import { type BackendBase, parseBackendEndpoint } from "./tools/request.ts";
import type { Toolset } from "./tools/runtime.ts";

/** Why an Exposition is not served: a closed set, used as a metric label. */
export const REFUSAL_REASONS = ["invalid", "compile", "environment", "unsupported"] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** An Exposition received but not served, and why (kept in the cache too). */
export const refusal = z.object({
  /** Absent when the record does not even carry a usable id. */
  expositionId: z.string().optional(),
  reason: z.enum(REFUSAL_REASONS),
  message: z.string(),
});
export type Refusal = z.output<typeof refusal>;

class RefusedExposition extends Error {
  readonly reason: RefusalReason;
  constructor(reason: RefusalReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

export interface ServedExposition {
  exposition: CompiledExposition;
  toolset: Toolset;
  templates: CompiledTemplate[];
  /** The backend endpoint, parsed once. */
  backend: BackendBase;
  /** Results that never change for this Exposition, serialized once (see SerializedResult). */
  serialized: Map<string, SerializedResult>;
  /** SHA-256 of the client API key, as bytes; undefined when the endpoint needs none. */
  apiKeyHash: Buffer | undefined;
  /**
   * Client keys already found to match `apiKeyHash`: only the valid key ever gets here, so it
   * holds one entry. A Set lookup hashes the presented key, so its timing tells nothing of how
   * much of the valid key a wrong one shares.
   */
  verifiedKeys: Set<string>;
  /** The plan's limits on this replica; undefined when it has none. A changed Exposition starts afresh. */
  limiter: ExpositionLimiter | undefined;
}

const defaultEnvPolicy = envPolicy(DEFAULT_ENV_ALLOW);

/**
 * Compiles one Exposition for serving; throws a RefusedExposition when it cannot be served.
 * `canElicit`: the gateway has a cluster key, without which it can neither seal a request state
 * nor keep a credential each user gives (backendSecret.elicit, elicitMissingArguments).
 */
export function serve(
  exposition: CompiledExposition,
  allowEnv: EnvPolicy = defaultEnvPolicy,
  canElicit = false,
  tlsFileDirs: string[] = DEFAULT_TLS_FILE_DIRS,
): ServedExposition {
  const secret = exposition.plan.backendSecret;
  // Fail closed: serving it would call the backend without the credential each user was to give.
  if (asksEachUser(secret) && !canElicit)
    throw new RefusedExposition(
      "unsupported",
      `its plan's backend secret is each user's own (backendSecret.${secret?.source === "elicit" ? "elicit" : "oauth2AuthorizationCode"}), ` +
        "and this gateway has no cluster key to keep those credentials with: set ATRIUM_GATEWAY_CLUSTER_KEY_FILE " +
        "(the same key on every replica)",
    );
  // Fail closed: the setting would do nothing, and calls would be refused instead of asked.
  if (exposition.plan.elicitMissingArguments && !canElicit)
    throw new RefusedExposition(
      "unsupported",
      "its plan asks users for missing arguments (elicitMissingArguments), and this gateway has no cluster key " +
        "to seal the answers of earlier rounds with: set ATRIUM_GATEWAY_CLUSTER_KEY_FILE (the same key on every " +
        "replica)",
    );
  const variable =
    secret?.source === "env"
      ? secret.variable
      : (secret?.clientCredentials ?? secret?.tokenExchange ?? secret?.authorizationCode)?.clientSecret?.variable;
  if (variable !== undefined) {
    const refused = allowEnv(variable);
    if (refused) throw new RefusedExposition("environment", refused);
  }
  const tls = backendTlsRefusal(exposition.plan.backendTls, tlsFileDirs);
  if (tls) throw new RefusedExposition(tls.reason, tls.message);
  try {
    return compiled(exposition);
  } catch (error) {
    throw new RefusedExposition("compile", `could not compile it: ${(error as Error).message}`);
  }
}

function compiled(exposition: CompiledExposition): ServedExposition {
  const toolset = compileToolset(exposition);
  // Fail closed: a per-tool scope or limit on a name no tool has would leave the intended tool unguarded.
  const { oauth, limits } = exposition.plan;
  for (const [field, byTool] of [
    ["oauth.toolScopes", oauth?.toolScopes],
    ["limits.tools", limits?.tools],
  ] as const) {
    const unknown = Object.keys(byTool ?? {}).filter((name) => !toolset.get(name));
    if (unknown.length > 0)
      throw new Error(`${field} names tools this Exposition does not have: ${unknown.join(", ")}`);
  }
  return {
    exposition,
    toolset,
    templates: compileTemplates(exposition.resourceTemplates),
    backend: parseBackendEndpoint(exposition.plan.backendEndpoint),
    apiKeyHash: exposition.plan.apiKeyHash ? Buffer.from(exposition.plan.apiKeyHash, "hex") : undefined,
    serialized: new Map(),
    verifiedKeys: new Set(),
    limiter: limits ? new ExpositionLimiter(limits) : undefined,
  };
}

export function sha256(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

interface Maps {
  byId: Map<string, ServedExposition>;
  byPath: Map<string, ServedExposition>;
}

const pathKey = (organization: string, name: string) => `${organization}/${name}`;

/** The keys an operation may carry, as the contract lists them. */
const operationKeys = new Set(Object.keys(NormalizedOperation.shape));
const quoted = (text: string) => JSON.stringify(text.slice(0, 64));

/**
 * Why this gateway cannot call an Exposition's operations, if it cannot: its Service is of a kind
 * it does not know, or an operation carries a key the contract does not list (a newer release's
 * call recipe, which the parse strips). Fail closed: served, those operations would be called as
 * plain HTTP. `raw` is the record as received, `exposition` its parse.
 */
function unknownProtocol(raw: unknown, exposition: CompiledExposition): string | undefined {
  const { kind, operations } = exposition.service;
  if (!serviceKind.safeParse(kind).success)
    return (
      `its Service is of kind ${quoted(kind)}, which this gateway does not call ` +
      `(it calls ${serviceKind.options.join(", ")}): upgrade the gateway`
    );
  const received = (raw as { service: { operations: object[] } }).service.operations;
  for (const [index, operation] of received.entries()) {
    const key = Object.keys(operation).find((name) => !operationKeys.has(name));
    if (key !== undefined)
      return (
        `its operation ${quoted(operations[index]?.operationId ?? "")} carries ${quoted(key)}, which this gateway ` +
        "does not know (a call recipe of a newer release): upgrade the gateway"
      );
  }
  return undefined;
}

/** Validates and compiles one raw record; never throws. */
function serveRaw(
  raw: unknown,
  allowEnv: EnvPolicy,
  canElicit: boolean,
  tlsFileDirs: string[],
): ServedExposition | Refusal {
  const rawId = (raw as { id?: unknown } | null)?.id;
  const expositionId = typeof rawId === "string" ? rawId : undefined;
  const parsed = compiledExposition.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    return { expositionId, reason: "invalid", message: `the gateway's contract refuses it: ${where}${issue?.message}` };
  }
  const unknown = unknownProtocol(raw, parsed.data);
  if (unknown) return { expositionId, reason: "unsupported", message: unknown };
  try {
    return serve(parsed.data, allowEnv, canElicit, tlsFileDirs);
  } catch (error) {
    const reason = error instanceof RefusedExposition ? error.reason : "compile";
    return { expositionId, reason, message: (error as Error).message };
  }
}

export class ExpositionRegistry {
  private maps: Maps = { byId: new Map(), byPath: new Map() };
  private refused = new Map<string | undefined, Refusal>();
  private readonly allowEnv: EnvPolicy;
  private readonly canElicit: boolean;
  private readonly tlsFileDirs: string[];
  private readonly observers: ((before: ServedExposition | undefined, after: ServedExposition | undefined) => void)[] =
    [];

  /**
   * `options.canElicit`: the gateway serves the elicited-credential flow (it has a cluster key);
   * `options.tlsFileDirs`: where plans may name backend TLS files (ATRIUM_GATEWAY_TLS_FILE_DIRS).
   */
  constructor(allowEnv: EnvPolicy = defaultEnvPolicy, options: { canElicit?: boolean; tlsFileDirs?: string[] } = {}) {
    this.allowEnv = allowEnv;
    this.canElicit = options.canElicit ?? false;
    this.tlsFileDirs = options.tlsFileDirs ?? DEFAULT_TLS_FILE_DIRS;
  }

  /** Expositions received but not served, and why. */
  refusals(): Refusal[] {
    return [...this.refused.values()];
  }

  get size(): number {
    return this.maps.byId.size;
  }

  byId(id: string): ServedExposition | undefined {
    return this.maps.byId.get(id);
  }

  byPath(organization: string, name: string): ServedExposition | undefined {
    return this.maps.byPath.get(pathKey(organization, name));
  }

  all(): CompiledExposition[] {
    return this.served().map((served) => served.exposition);
  }

  served(): ServedExposition[] {
    return [...this.maps.byId.values()];
  }

  /** Told of each Exposition a snapshot or delta replaced, added or removed (notifications on open streams). */
  observe(observer: (before: ServedExposition | undefined, after: ServedExposition | undefined) => void): void {
    this.observers.push(observer);
  }

  /** A snapshot: everything is replaced. Returns what was refused. */
  replaceAll(expositions: unknown[], refusals: Refusal[] = []): Refusal[] {
    this.refused = new Map(refusals.map((refusal) => [refusal.expositionId, refusal]));
    return this.apply(expositions, [], new Map());
  }

  /** A delta: upserts replace or add, deletes drop (unknown ids are ignored). Returns what was refused. */
  apply(upserts: unknown[], deletes: string[], base = this.maps.byId): Refusal[] {
    const next = new Map(base);
    const refusals: Refusal[] = [];
    for (const id of deletes) {
      next.delete(id);
      this.refused.delete(id);
    }
    for (const raw of upserts) {
      const served = serveRaw(raw, this.allowEnv, this.canElicit, this.tlsFileDirs);
      if ("toolset" in served) {
        next.set(served.exposition.id, served);
        this.refused.delete(served.exposition.id);
      } else {
        const refusal = { ...served, message: served.message.slice(0, PROBLEM_MESSAGE_MAX) };
        if (refusal.expositionId !== undefined) next.delete(refusal.expositionId);
        this.refused.set(refusal.expositionId, refusal);
        refusals.push(refusal);
      }
    }
    const previous = this.maps.byId;
    this.maps = index([...next.values()]);
    if (this.observers.length > 0) {
      for (const id of new Set([...previous.keys(), ...next.keys()])) {
        const before = previous.get(id);
        const after = next.get(id);
        if (before !== after) for (const observer of this.observers) observer(before, after);
      }
    }
    return refusals;
  }
}

function index(served: ServedExposition[]): Maps {
  const byId = new Map<string, ServedExposition>();
  const byPath = new Map<string, ServedExposition>();
  for (const entry of served) {
    byId.set(entry.exposition.id, entry);
    byPath.set(pathKey(entry.exposition.organization.name, entry.exposition.name), entry);
  }
  return { byId, byPath };
}

/** `build()`'s result for this Exposition, serialized on first use and reused after. */
export function serializedOnce(served: ServedExposition, key: string, build: () => unknown): SerializedResult {
  let result = served.serialized.get(key);
  if (!result) {
    result = new SerializedResult(JSON.stringify(build()));
    served.serialized.set(key, result);
  }
  return result;
}
