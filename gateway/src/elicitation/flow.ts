/**
 * The elicited-credential call path (issue 15): a tool of an Exposition whose plan has
 * `backendSecret.elicit` calls its backend with the caller's own credential, which the caller
 * gives once on the gateway's elicitation page (`<origin>/elicitations/<id>`, page*.ts) and any
 * replica then reads from the credential store.
 *
 * Without a stored credential the call does not reach the backend:
 * - MCP 2026-07-28 answers `input_required` with one URL-mode `elicitation/create` and a sealed
 *   `requestState` (request-state.ts) bound to the OAuth user, the Exposition, the tool and the
 *   arguments; the client retries with it once the page is done. A client that did not declare
 *   `elicitation.url` gets -32021, and a plan without `oauth` is refused: that era has no session,
 *   so there would be no user to bind the credential to.
 * - The 2025 eras answer -32042 (URL_ELICITATION_REQUIRED) with the page's URL and its
 *   `elicitationId`; the credential belongs to the OAuth user, or to the MCP session when the plan
 *   has no `oauth`.
 *
 * With `backendSecret.oauth2AuthorizationCode` the same flow asks the user to authorize the
 * backend instead: the page sends them to its authorization server, and what is stored is their
 * grant (backend-grant.ts), whose access token calls send, refreshed when it expires; a grant
 * that cannot be refreshed is forgotten and the user asked again.
 */
import { RestProblemError } from "@atrium/contract/rest-client";
import { TOO_MANY_CALLS } from "../mcp/overload.ts";
import { ERROR, McpError } from "../mcp/protocol.ts";
import type { ServedExposition } from "../registry.ts";
import { isPlainObject } from "../tools/schema.ts";
import type { BackendGrants } from "./backend-grant.ts";
import type { ClusterKeyring } from "./cluster-keys.ts";
import { credentialScope, type ElicitedCredentialStore, principalDigest } from "./credential-store.ts";
import type { PendingElicitations } from "./pending-elicitations.ts";
import { openRequestState, type RequestBinding, type RequestPrincipal, sealRequestState } from "./request-state.ts";

/** What the flow and the page share on a gateway with a cluster key. */
export interface ElicitationServices {
  keyring: ClusterKeyring;
  store: ElicitedCredentialStore;
  pending: PendingElicitations;
  /** Each user's grant at the backend's authorization server (oauth2AuthorizationCode). */
  grants: BackendGrants;
}

/** One call's side of the flow, set by the endpoint on Expositions whose plan elicits. */
export interface ElicitationCall {
  services: ElicitationServices;
  /** Origin of the page URL: the gateway as the client reached it (`<proto>://<host>`). */
  origin: string;
  /** Whose credential: the OAuth user, or the 2025 session; undefined on a modern call to a plan without oauth. */
  principal: RequestPrincipal | undefined;
  /** The modern request's `clientCapabilities`. */
  capabilities?: unknown;
}

/** Whether the plan's backend secret is each user's own: given on the page (elicit) or granted there (oauth2AuthorizationCode). */
export function asksEachUser(secret: { source: string } | undefined): boolean {
  return secret?.source === "elicit" || secret?.source === "oauth2AuthorizationCode";
}

/** The key of the one input request, in `inputRequests` and `inputResponses`. */
export const CREDENTIAL_INPUT = "backend_credential";

/** The page's path for an elicitation id (the page helper serves it). */
export function elicitationPagePath(id: string): string {
  return `/elicitations/${id}`;
}

export interface InputRequiredResult {
  resultType: "input_required";
  inputRequests: Record<string, { method: "elicitation/create"; params: Record<string, unknown> }>;
  requestState: string;
}

/** The caller's credential, and whose it is (a backend 401 evicts it). */
export interface Elicited {
  kind: "credential";
  credential: string;
  principal: RequestPrincipal;
}

/** What a call gets instead of a refusal (an McpError, thrown). */
export type FlowOutcome =
  | Elicited
  | { kind: "input-required"; result: InputRequiredResult }
  /** The user declined or cancelled the elicitation (modern `inputResponses`). */
  | { kind: "declined"; action: string }
  /** The user's grant could not be refreshed for now (the authorization server's words, for the client). */
  | { kind: "failed"; text: string };

interface Asked {
  served: ServedExposition;
  /** The tool whose call needs the credential. */
  tool: string;
  /** The call's params: `arguments`, and on a modern retry `requestState` and `inputResponses`. */
  params: Record<string, unknown>;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return isPlainObject(value) ? value : undefined;
}

function descriptionOf(served: ServedExposition): string {
  const secret = served.exposition.plan.backendSecret;
  if (secret?.source === "oauth2AuthorizationCode")
    return (
      secret.authorizationCode?.description ??
      `Authorize ${credentialScope(served.exposition).backend} to act for you (sign in at its authorization server)`
    );
  return secret?.source === "elicit" && secret.description ? secret.description : "A credential for the backend";
}

/**
 * The caller's stored credential: as given (elicit), or the access token of their grant, refreshed
 * and stored again when it expires; undefined when there is none (or it is gone), so it is asked for.
 */
async function credentialOf(
  call: ElicitationCall,
  served: ServedExposition,
  principal: RequestPrincipal,
): Promise<string | { failed: string } | undefined> {
  const { store, grants } = call.services;
  const scope = credentialScope(served.exposition);
  const stored = await fromControlPlane(store.get(scope, principal));
  const settings = served.exposition.plan.backendSecret?.authorizationCode;
  if (stored === undefined || !settings) return stored;
  const outcome = await grants.current(
    stored,
    settings,
    `${scope.expositionId} ${principalDigest(principal)}`,
    (next) => fromControlPlane(store.put(scope, principal, JSON.stringify(next))),
  );
  if (outcome.kind === "token") return outcome.token;
  if (outcome.kind === "error") return { failed: outcome.forClient };
  await fromControlPlane(store.delete(scope, principal));
  return undefined;
}

/** MCP 2026-07-28: the stored credential, or an `input_required` result asking for it. */
export async function modernCredential(call: ElicitationCall, asked: Asked): Promise<FlowOutcome> {
  const { served, tool, params } = asked;
  const { principal } = call;
  if (!principal) {
    throw new McpError(
      ERROR.invalidRequest,
      `Exposition ${served.exposition.name} asks each user for their own backend credential, and protocol ` +
        "2026-07-28 ties it to the user an OAuth token names, but the Exposition's plan has no oauth: connect " +
        "with a 2025 protocol version (the credential then belongs to the MCP session), or set oauth on the plan",
      400,
    );
  }
  const binding: RequestBinding = { principal, expositionId: served.exposition.id, tool, arguments: params.arguments };
  const { keyring, pending } = call.services;
  let echoed: { state: string; elicitationId: string } | undefined;
  if (params.requestState !== undefined) {
    if (typeof params.requestState !== "string")
      throw new McpError(ERROR.invalidParams, "requestState must be the string the gateway issued", 400);
    const opened = openRequestState(keyring, params.requestState, binding);
    if (!opened.ok) throw new McpError(ERROR.invalidParams, opened.message, 400, { reason: opened.reason });
    echoed = { state: params.requestState, elicitationId: opened.state.elicitationId };
    const action = record(record(params.inputResponses)?.[CREDENTIAL_INPUT])?.action;
    if (action === "decline" || action === "cancel") return { kind: "declined", action };
  }
  const credential = await credentialOf(call, served, principal);
  if (typeof credential === "object") return { kind: "failed", text: credential.failed };
  if (credential !== undefined) return { kind: "credential", credential, principal };
  if (record(record(record(call.capabilities)?.elicitation)?.url) === undefined) {
    throw new McpError(
      ERROR.missingCapability,
      `Tool ${tool} needs your backend credential, asked for through URL-mode elicitation: declare the ` +
        "elicitation.url client capability",
      400,
      { requiredCapabilities: { elicitation: { url: {} } } },
    );
  }
  // A retry before the page was submitted: the same page and state while its elicitation is pending.
  if (echoed && (await fromControlPlane(stillPending(pending, echoed.elicitationId)))) {
    return { kind: "input-required", result: inputRequired(served, call.origin, echoed.elicitationId, echoed.state) };
  }
  const { id } = await fromControlPlane(pending.record(served.exposition.id, principalDigest(principal), tool));
  return {
    kind: "input-required",
    result: inputRequired(served, call.origin, id, sealRequestState(keyring, binding, id)),
  };
}

/** The 2025 eras: the stored credential, or a -32042 refusal naming the page. */
export async function legacyCredential(call: ElicitationCall, asked: Asked): Promise<FlowOutcome> {
  const { served, tool } = asked;
  const { principal } = call;
  // The endpoint always sets one in these eras (the OAuth user or the session); without, fail closed.
  if (!principal) throw new McpError(ERROR.invalidRequest, "No user or session to ask a credential of", 400);
  const credential = await credentialOf(call, served, principal);
  if (typeof credential === "object") return { kind: "failed", text: credential.failed };
  if (credential !== undefined) return { kind: "credential", credential, principal };
  const { id } = await fromControlPlane(
    call.services.pending.record(served.exposition.id, principalDigest(principal), tool),
  );
  throw new McpError(
    ERROR.urlElicitationRequired,
    `Tool ${tool} needs your backend credential: open the URL in data.elicitations, give it there, then call again`,
    200,
    {
      elicitations: [{ mode: "url", elicitationId: id, url: pageUrl(call.origin, id), message: descriptionOf(served) }],
    },
  );
}

/**
 * The stored credential for a call that does not ask for one (a resource read), or a refusal
 * saying how to give it (`httpStatus`: the era's status for an invalid request).
 */
export async function storedCredential(
  call: ElicitationCall,
  served: ServedExposition,
  httpStatus: number,
): Promise<Elicited> {
  const credential = call.principal && (await credentialOf(call, served, call.principal));
  if (typeof credential !== "string" || !call.principal)
    throw new McpError(
      ERROR.invalidRequest,
      "Reading this resource needs your backend credential: call one of the Exposition's tools first, which asks for it",
      httpStatus,
    );
  return { kind: "credential", credential, principal: call.principal };
}

/**
 * What the control plane answered, as the client should see it: the credential store and the
 * pending elicitations live there, and a refusal or an outage must reach the client as an MCP
 * error in words, never as the gateway's 500.
 */
export async function fromControlPlane<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof McpError) throw error;
    if (error instanceof RestProblemError && error.status === 429) {
      const why = error.problem?.detail ?? "too many pending requests for credentials";
      throw new McpError(TOO_MANY_CALLS, `Your credential cannot be asked for now: ${why}`, 429, {
        retryAfterSeconds: 60,
      });
    }
    throw new McpError(
      ERROR.internal,
      "The gateway could not reach the control plane to find or ask for your backend credential: try again shortly",
      503,
    );
  }
}

async function stillPending(pending: PendingElicitations, id: string): Promise<boolean> {
  const elicitation = await pending.read(id);
  // A margin: a page about to expire is not handed out again.
  return (
    elicitation !== undefined && elicitation.usedAt === null && Date.parse(elicitation.expiresAt) > Date.now() + 30_000
  );
}

function pageUrl(origin: string, id: string): string {
  return `${origin}${elicitationPagePath(id)}`;
}

function inputRequired(
  served: ServedExposition,
  origin: string,
  id: string,
  requestState: string,
): InputRequiredResult {
  return {
    resultType: "input_required",
    inputRequests: {
      [CREDENTIAL_INPUT]: {
        method: "elicitation/create",
        params: { mode: "url", message: descriptionOf(served), url: pageUrl(origin, id) },
      },
    },
    requestState,
  };
}

/** Spec: a backend 401 on an elicited credential evicts it, so the next call asks again. */
export async function evict(call: ElicitationCall, served: ServedExposition, elicited: Elicited): Promise<void> {
  await call.services.store.delete(credentialScope(served.exposition), elicited.principal);
}
