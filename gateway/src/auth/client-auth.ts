/**
 * The client → gateway boundary: a plan's endpoint is open, behind an API key (x-atrium-key),
 * or behind OAuth 2.0 bearer tokens. The mode follows from what the plan carries, so a plan
 * with `oauth` is never served without a valid token; one that carried both (written before the
 * schema refused it) needs both. Throws an AuthRefusal; returns who the client is.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { inSpan, tracing, withinRequest } from "@atrium/contract/telemetry";
import { type ServedExposition, sha256 } from "../registry.ts";
import { type BearerVerifiers, checkAccess, type TokenPrincipal } from "./bearer.ts";
import type { IssuerKeys } from "./issuer-keys.ts";
import { AuthRefusal, refusals } from "./refusals.ts";
import { addressOf, type EndpointAddress, resourceUrl } from "./resource.ts";

/** Which tools a token's scopes hide, with a key naming that view of the tool list (for caching it). */
export interface ToolAccess {
  key: string;
  denied: ReadonlySet<string>;
  /** The scopes a denied tool needs. */
  scopesOf: (tool: string) => readonly string[];
}

export type ClientIdentity =
  | { mode: "none" | "apiKey" }
  | { mode: "oauth"; principal: TokenPrincipal; address: EndpointAddress; tools: ToolAccess | undefined };

const OPEN: ClientIdentity = { mode: "none" };
const API_KEY: ClientIdentity = { mode: "apiKey" };

/** The token of `Authorization: Bearer <token>`; never read from the query string (RFC 9700 section 2.5). */
export function bearerToken(headers: { authorization?: string | string[] }): string | undefined {
  const header = headers.authorization;
  if (typeof header !== "string" || header.length < 7 || header.slice(0, 7).toLowerCase() !== "bearer ") return;
  const token = header.slice(7).trim();
  return token === "" ? undefined : token;
}

function checkApiKey(headers: IncomingHttpHeaders, served: ServedExposition): void {
  const key = headers["x-atrium-key"];
  if (typeof key !== "string" || key === "") throw refusals.missingApiKey();
  // A key seen valid for this Exposition is remembered (in its served form, which a renewal
  // replaces), sparing a SHA-256 per call; a wrong key is hashed and compared every time.
  if (served.verifiedKeys.has(key)) return;
  if (!timingSafeEqual(sha256(key), served.apiKeyHash as Buffer)) throw refusals.invalidApiKey();
  served.verifiedKeys.add(key);
}

function toolAccess(served: ServedExposition, principal: TokenPrincipal): ToolAccess | undefined {
  const toolScopes = served.exposition.plan.oauth?.toolScopes;
  if (!toolScopes) return undefined;
  let key = "";
  const denied = new Set<string>();
  for (const [tool, scopes] of Object.entries(toolScopes)) {
    const allowed = scopes.every((scope) => principal.scopes.has(scope));
    key += allowed ? "1" : "0";
    if (!allowed) denied.add(tool);
  }
  // A token that may use every tool sees the list everyone with all scopes sees.
  return denied.size === 0 ? undefined : { key, denied, scopesOf: (tool) => toolScopes[tool] ?? [] };
}

export class ClientAuthenticator {
  private readonly verifiers: BearerVerifiers;

  constructor(verifiers: BearerVerifiers) {
    this.verifiers = verifiers;
  }

  /** Synchronous for open and API-key endpoints (the hot path), a promise for OAuth ones. */
  authenticate(
    headers: IncomingHttpHeaders,
    served: ServedExposition,
    byId: boolean,
  ): ClientIdentity | Promise<ClientIdentity> {
    if (served.apiKeyHash) checkApiKey(headers, served);
    if (!served.exposition.plan.oauth) return served.apiKeyHash ? API_KEY : OPEN;
    // The one check that may wait (for the issuer's keys): a span of its own when tracing.
    if (!tracing()) return this.authenticateBearer(headers, served, byId);
    return withinRequest(headers, () =>
      inSpan("verify access token", { attributes: { "atrium.auth.mode": "oauth" } }, (span) =>
        this.authenticateBearer(headers, served, byId).catch((error: unknown) => {
          if (error instanceof AuthRefusal) span?.setAttribute("atrium.auth.refusal", error.reason);
          throw error;
        }),
      ),
    );
  }

  /** The key-set URL tokens are checked against (for the protected-resource metadata), discovered if need be. */
  async jwksUriOf(served: ServedExposition): Promise<string | undefined> {
    const oauth = served.exposition.plan.oauth;
    if (!oauth) return undefined;
    const { keys } = this.verifiers.for(oauth.issuer, oauth.jwksUri);
    // Discovery failing is the refusals' business; the metadata then goes without jwks_uri.
    await keys.getKey().catch(() => undefined);
    return keys.jwksUri;
  }

  /** The signing keys of an issuer, shared with the endpoints that trust it (the elicitation page's sign-in). */
  issuerKeys(issuer: string, jwksUri: string | undefined): IssuerKeys {
    return this.verifiers.for(issuer, jwksUri).keys;
  }

  /** Why the issuer's keys are out of reach, for the log. */
  keysProblemOf(served: ServedExposition): string | undefined {
    const oauth = served.exposition.plan.oauth;
    return oauth ? this.verifiers.for(oauth.issuer, oauth.jwksUri).keys.problem : undefined;
  }

  private async authenticateBearer(
    headers: IncomingHttpHeaders,
    served: ServedExposition,
    byId: boolean,
  ): Promise<ClientIdentity> {
    const oauth = served.exposition.plan.oauth;
    if (!oauth) throw new Error("unreachable: the plan has no oauth settings");
    const token = bearerToken(headers);
    if (!token) throw refusals.missingBearerToken();
    const principal = await this.verifiers.for(oauth.issuer, oauth.jwksUri).verify(token);
    const address = addressOf(headers, served, byId);
    const resource = resourceUrl(served, address);
    checkAccess(principal, {
      audience: oauth.audience ?? resource,
      resource,
      requiredScopes: oauth.requiredScopes ?? [],
    });
    return { mode: "oauth", principal, address, tools: toolAccess(served, principal) };
  }
}
