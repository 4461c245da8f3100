/**
 * Who may call what: the one table of access rules of the REST API, keyed by method and route.
 * A caller is an actor — a logged-in user (`admin` or `member`) or an API token (`gateway`,
 * `operator` or `admin`). A route missing from the table is refused to everyone (fail closed),
 * and access-rules.test.ts walks every route of the OpenAPI document so none is forgotten.
 * Rules that depend on the body (platform admins, `${env:…}` references) are here too, as
 * functions the routes call.
 */
import type { TokenRole, UserRole } from "@atrium/contract/rest";
import { errors } from "../errors.ts";
import type { Principal } from "./principal.ts";

export type Actor = `user:${UserRole}` | `token:${TokenRole}`;
export const ACTORS: readonly Actor[] = ["user:admin", "user:member", "token:admin", "token:operator", "token:gateway"];

/** Reachable without a token. */
export const PUBLIC = "public";
export type AccessRule = typeof PUBLIC | readonly Actor[];

const everyone = ACTORS;
/** Logged-in people and admin tokens: read the organization's records and gateways. */
const people = ["user:admin", "user:member", "token:admin"] as const;
/** Whoever maintains the desired state: people, admin tokens, and the operator reconciling CRs. */
const editors = [...people, "token:operator"] as const;
/** Credentials and users are managed by a logged-in admin only: no token mints successors. */
const userAdmins = ["user:admin"] as const;
const gateways = ["token:gateway"] as const;

/** Create, list, read, replace and delete of a collection of records. */
function records(collection: string, actors: readonly Actor[]): Record<string, readonly Actor[]> {
  return {
    [`POST ${collection}`]: actors,
    [`GET ${collection}`]: actors,
    [`GET ${collection}/:id`]: actors,
    [`PUT ${collection}/:id`]: actors,
    [`DELETE ${collection}/:id`]: actors,
  };
}

const api = "/api/v1";

/** `METHOD /api/v1/route/:param` → who may call it. */
export const ACCESS_RULES: Readonly<Record<string, AccessRule>> = {
  [`POST ${api}/login`]: PUBLIC,
  [`GET ${api}/openapi.json`]: PUBLIC,
  [`POST ${api}/logout`]: everyone,
  [`GET ${api}/info`]: everyone,
  // A gateway learns its organization (cache identity); nothing in it is secret.
  [`GET ${api}/organization`]: everyone,
  // Platform admins only (checked in the route: requirePlatformAdmin).
  [`POST ${api}/organizations`]: userAdmins,
  [`POST ${api}/admin/reencrypt`]: userAdmins,

  [`POST ${api}/users`]: userAdmins,
  [`GET ${api}/users`]: people,
  [`PUT ${api}/users/:id`]: userAdmins,
  [`DELETE ${api}/users/:id`]: userAdmins,
  [`POST ${api}/api-tokens`]: userAdmins,
  [`GET ${api}/api-tokens`]: userAdmins,
  [`GET ${api}/api-tokens/:id`]: userAdmins,
  [`DELETE ${api}/api-tokens/:id`]: userAdmins,

  // Secret values are write-only for everyone; only gateways receive them, on their stream.
  ...records(`${api}/secrets`, editors),
  ...records(`${api}/services`, editors),
  [`POST ${api}/services/import`]: editors,
  ...records(`${api}/custom-tools`, editors),
  ...records(`${api}/resources`, editors),
  ...records(`${api}/prompts`, editors),
  ...records(`${api}/gateway-groups`, editors),
  ...records(`${api}/configuration-plans`, editors),
  // The operator renews a key whose Kubernetes Secret was deleted.
  [`POST ${api}/configuration-plans/:id/renew-api-key`]: editors,
  [`POST ${api}/expositions`]: editors,
  [`GET ${api}/expositions`]: editors,
  [`GET ${api}/expositions/:id`]: editors,
  [`GET ${api}/expositions/:id/tools`]: editors,
  [`PUT ${api}/expositions/:id`]: editors,
  [`DELETE ${api}/expositions/:id`]: editors,

  [`GET ${api}/gateways`]: people,
  [`POST ${api}/gateways/register`]: gateways,
  [`POST ${api}/gateways/:id/health`]: gateways,
  [`GET ${api}/gateways/:id/stream`]: gateways,
  [`POST ${api}/gateways/:id/ended-sessions`]: gateways,
  [`PUT ${api}/gateways/:id/problems`]: gateways,
  // Ciphertext only gateways can open: nobody else reads or writes it (issue 15).
  [`GET ${api}/expositions/:id/elicited-credentials/:principal`]: gateways,
  [`PUT ${api}/expositions/:id/elicited-credentials/:principal`]: gateways,
  [`DELETE ${api}/expositions/:id/elicited-credentials/:principal`]: gateways,
  [`POST ${api}/elicitations`]: gateways,
  [`GET ${api}/elicitations/:idHash`]: gateways,
  [`POST ${api}/elicitations/:idHash/consume`]: gateways,
  // A gateway deregisters itself on shutdown; an admin removes a gateway that is gone.
  [`DELETE ${api}/gateways/:id`]: [...gateways, "user:admin", "token:admin"],
};

export function actorOf(principal: Pick<Principal, "kind" | "role">): Actor {
  return principal.kind === "user" ? (`user:${principal.role}` as Actor) : (`token:${principal.role}` as Actor);
}

/** The rule of a route; HEAD follows GET. Undefined when the table has none. */
export function ruleOf(method: string, route: string): AccessRule | undefined {
  return ACCESS_RULES[`${method === "HEAD" ? "GET" : method} ${route}`];
}

/** Throws a 403 naming the roles that may call the route, when the principal's may not. */
export function authorize(principal: Principal, method: string, route: string): void {
  const rule = ruleOf(method, route);
  if (rule === PUBLIC) return;
  if (!rule) throw errors.noAccessRule(method, route);
  const actor = actorOf(principal);
  if (!rule.includes(actor))
    throw errors.roleRefused(`${method} ${route}`, describeActor(actor), rule.map(describeActor));
}

function describeActor(actor: Actor): string {
  const [kind, role] = actor.split(":");
  return kind === "user" ? `a user with role ${role}` : `an API token with role ${role}`;
}

export function requirePlatformAdmin(principal: Principal, what: string): void {
  if (principal.kind !== "user" || !principal.platformAdmin) throw errors.forbidden(`${what} (platform admins only)`);
}

/**
 * `${env:NAME}` backend secrets read the gateway's environment, and backend TLS files its file
 * system: only admins (and the operator, whose CRs cluster administrators write) may set them.
 */
const ENV_REFERENCE_WRITERS: readonly Actor[] = ["user:admin", "token:admin", "token:operator"];

export function requireEnvReferenceWriter(
  principal: Principal,
  field: string,
  what = "Writing an environment reference",
): void {
  if (!ENV_REFERENCE_WRITERS.includes(actorOf(principal))) {
    throw errors.roleRefused(`${what} (${field})`, describeActor(actorOf(principal)), [
      ...ENV_REFERENCE_WRITERS.map(describeActor),
    ]);
  }
}
