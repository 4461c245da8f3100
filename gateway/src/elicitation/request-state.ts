/**
 * The MRTR `requestState` of an elicited-credential round trip (MCP 2026-07-28): what the gateway
 * hands the client with `input_required` and gets back on the retry. The client holds it, so it
 * is sealed (AES-256-GCM with the cluster key's request-state key, any replica opens it) and never
 * trusted unsealed. It binds who asked (OAuth issuer and subject, or the 2025 session when the
 * endpoint has no OAuth), the Exposition, the tool, a digest of the canonical arguments, the
 * elicitation id and an expiry; open refuses any mismatch with its own coded reason.
 *
 * elicitation/flow.ts issues it and accepts it back.
 */
import { createHash } from "node:crypto";
import type { ClusterKeyring, OpenFailure } from "./cluster-keys.ts";

/** Who the state belongs to: an OAuth user, or (2025 eras without OAuth) an MCP session. */
export type RequestPrincipal = { iss: string; sub: string } | { sessionId: string };

export interface RequestBinding {
  principal: RequestPrincipal;
  expositionId: string;
  tool: string;
  /** The call's arguments; bound by the SHA-256 of their canonical JSON. */
  arguments: unknown;
}

export interface OpenedRequestState {
  elicitationId: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

/** How long a sealed state is accepted by default: long enough to fill in the page, no longer. */
export const REQUEST_STATE_TTL_SECONDS = 600;
/** Longer input is refused unread (a sealed state is a few hundred characters). */
export const REQUEST_STATE_MAX_LENGTH = 4096;

export type RequestStateRefusal =
  | OpenFailure
  | "expired"
  | "other-user"
  | "other-exposition"
  | "other-tool"
  | "other-arguments";

/** Every refusal's message, in one place; none of them echoes the state or the arguments. */
export const REQUEST_STATE_REFUSALS: Record<RequestStateRefusal, string> = {
  malformed: "requestState is not a state this gateway issued",
  "unknown-key": "requestState was sealed with a cluster key this gateway does not hold",
  tampered: "requestState failed its integrity check",
  expired: "requestState has expired: call the tool again without it",
  "other-user": "requestState belongs to another user or session",
  "other-exposition": "requestState was issued for another Exposition",
  "other-tool": "requestState was issued for another tool",
  "other-arguments": "requestState was issued for other arguments: retry with the same arguments",
};

/** What is sealed, in short keys. */
interface Sealed {
  p: string;
  e: string;
  t: string;
  a: string;
  i: string;
  x: number;
}

/** Sealed with an empty context: the bound facts are inside, so each mismatch gets its own reason. */
const CONTEXT = "";

export function sealRequestState(
  keyring: ClusterKeyring,
  binding: RequestBinding,
  elicitationId: string,
  options: { now?: number; ttlSeconds?: number } = {},
): string {
  const now = options.now ?? Date.now() / 1000;
  const sealed: Sealed = {
    p: principalKey(binding.principal),
    e: binding.expositionId,
    t: binding.tool,
    a: argumentsDigest(binding.arguments),
    i: elicitationId,
    x: Math.floor(now + (options.ttlSeconds ?? REQUEST_STATE_TTL_SECONDS)),
  };
  return keyring.seal("request-state", Buffer.from(JSON.stringify(sealed)), CONTEXT);
}

export function openRequestState(
  keyring: ClusterKeyring,
  text: string,
  expected: RequestBinding,
  now: number = Date.now() / 1000,
): { ok: true; state: OpenedRequestState } | { ok: false; reason: RequestStateRefusal; message: string } {
  const refuse = (reason: RequestStateRefusal) => ({
    ok: false as const,
    reason,
    message: REQUEST_STATE_REFUSALS[reason],
  });
  if (text.length > REQUEST_STATE_MAX_LENGTH) return refuse("malformed");
  const opened = keyring.open("request-state", text, CONTEXT);
  if (!opened.ok) return refuse(opened.reason);
  const state = JSON.parse(opened.plaintext.toString("utf8")) as Sealed;
  if (now >= state.x) return refuse("expired");
  if (state.p !== principalKey(expected.principal)) return refuse("other-user");
  if (state.e !== expected.expositionId) return refuse("other-exposition");
  if (state.t !== expected.tool) return refuse("other-tool");
  if (state.a !== argumentsDigest(expected.arguments)) return refuse("other-arguments");
  return { ok: true, state: { elicitationId: state.i, expiresAt: state.x } };
}

/**
 * The principal as one string (what states and stored credentials are bound to). A session is
 * named by the hash of its id: the id itself is a bearer credential.
 */
export function principalKey(principal: RequestPrincipal): string {
  return "sessionId" in principal
    ? `session:${createHash("sha256").update(principal.sessionId).digest("base64url")}`
    : `user:${JSON.stringify([principal.iss, principal.sub])}`;
}

/** SHA-256 of the canonical JSON (object keys sorted at every depth): key order never matters. */
export function argumentsDigest(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("base64url");
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
