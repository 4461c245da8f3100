/**
 * An OAuth-protected endpoint as a protected resource (RFC 9728): its resource URL, the URL of
 * its metadata (the well-known segment inserted before the endpoint's path), the metadata
 * itself, and the `WWW-Authenticate` challenge of a refusal.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { ServedExposition } from "../registry.ts";
import type { AuthRefusal } from "./refusals.ts";

export const METADATA_PREFIX = "/.well-known/oauth-protected-resource";

/** Where a client reached an endpoint. */
export interface EndpointAddress {
  /** `http(s)://host`, as the client used it. */
  origin: string;
  /** `/mcp/<id>` or `/mcp/<organization>/<name>`, whichever the client called. */
  path: string;
}

/**
 * The client's view of the gateway: its Host (already checked against the gateway's names) and
 * scheme (`X-Forwarded-Proto` from a TLS-terminating proxy, else plain HTTP, which the gateway serves).
 */
export function addressOf(headers: IncomingHttpHeaders, served: ServedExposition, byId: boolean): EndpointAddress {
  const { exposition } = served;
  const path = byId
    ? `/mcp/${encodeURIComponent(exposition.id)}`
    : `/mcp/${encodeURIComponent(exposition.organization.name)}/${encodeURIComponent(exposition.name)}`;
  return { origin: requestOrigin(headers), path };
}

/** `<proto>://<host>` of the gateway as the client reached it (see addressOf). */
export function requestOrigin(headers: IncomingHttpHeaders): string {
  const forwarded = headers["x-forwarded-proto"];
  const proto = forwarded === "https" || forwarded === "http" ? forwarded : "http";
  return `${proto}://${headers.host ?? "localhost"}`;
}

/** The plan's `resource`, or the URL the client called. */
export function resourceUrl(served: ServedExposition, address: EndpointAddress): string {
  return served.exposition.plan.oauth?.resource ?? `${address.origin}${address.path}`;
}

export function metadataUrl(address: EndpointAddress): string {
  return `${address.origin}${METADATA_PREFIX}${address.path}`;
}

/** Every scope a token may need on this endpoint: the required ones, then the per-tool ones. */
export function scopesSupported(served: ServedExposition): string[] {
  const oauth = served.exposition.plan.oauth;
  const scopes = new Set(oauth?.requiredScopes ?? []);
  for (const toolScopes of Object.values(oauth?.toolScopes ?? {})) for (const scope of toolScopes) scopes.add(scope);
  return [...scopes];
}

/** RFC 9728 section 2: what a client needs to get a token for this endpoint. */
export function protectedResourceMetadata(served: ServedExposition, address: EndpointAddress, jwksUri?: string) {
  const oauth = served.exposition.plan.oauth;
  return {
    resource: resourceUrl(served, address),
    authorization_servers: oauth ? [oauth.issuer] : [],
    ...(jwksUri ? { jwks_uri: jwksUri } : {}),
    scopes_supported: scopesSupported(served),
    bearer_methods_supported: ["header"],
    resource_name: served.exposition.name,
  };
}

/** A quoted-string parameter value (RFC 9110 section 5.6.4): no quotes, backslashes or control characters. */
function quoted(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
  return `"${value.replace(/["\\\x00-\x1f\x7f]/g, "")}"`;
}

/** The `WWW-Authenticate` header of a refusal on an OAuth-protected endpoint (RFC 6750 section 3, RFC 9728 section 5.1). */
export function bearerChallenge(refusal: AuthRefusal, address: EndpointAddress, served: ServedExposition): string {
  const parts = [`resource_metadata=${quoted(metadataUrl(address))}`];
  if (refusal.oauthError) {
    parts.push(`error=${quoted(refusal.oauthError)}`, `error_description=${quoted(refusal.message)}`);
  }
  const scope = refusal.scope ?? served.exposition.plan.oauth?.requiredScopes?.join(" ");
  if (scope) parts.push(`scope=${quoted(scope)}`);
  return `Bearer ${parts.join(", ")}`;
}
