/**
 * The `state` of a redirect from the elicitation page to an authorization server, shared by the
 * page's sign-in (sign-in.ts) and a backend grant (backend-grant.ts): the elicitation id, the
 * PKCE verifier, a browser binding and an expiry, sealed with the cluster key's key for that
 * purpose, so nothing is kept server-side and any replica finishes what another started. The
 * binding is also set in a cookie (SameSite=Lax: the redirect back is a cross-site navigation),
 * so a callback URL replayed from another browser is refused.
 */
import { createHash, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ClusterKeyring } from "./cluster-keys.ts";
import { isElicitationId } from "./elicitation-id.ts";
import { cookieValue, pageCookie } from "./page-cookies.ts";
import type { SignInRefusal } from "./page-html.ts";

export const BINDING_COOKIE = "atrium-elicitation-sign-in";
const BINDING = /^[A-Za-z0-9_-]{43}$/;
/** Time to sign in or authorize: as long as an elicitation lives at most. */
const STATE_TTL_SECONDS = 900;
const MAX_STATE_LENGTH = 2048;
const MAX_CODE_LENGTH = 4096;

/** What every redirect's state seals: elicitation id, PKCE verifier, browser binding, expiry (seconds). */
export interface RedirectState {
  i: string;
  v: string;
  b: string;
  x: number;
}

/** A redirect that let nobody in; `id` when the state named an elicitation. */
export interface SignInRefused {
  ok: false;
  refusal: SignInRefusal;
  id?: string;
}

type Purpose = "sign-in-state" | "grant-state";

/** A new state for `id` (with `more` sealed beside), its sealed form and PKCE challenge; sets the binding cookie. */
export function sealRedirectState<T extends RedirectState>(
  keyring: ClusterKeyring,
  purpose: Purpose,
  request: FastifyRequest,
  reply: FastifyReply,
  id: string,
  more: Omit<T, keyof RedirectState>,
): { state: T; sealed: string; challenge: string } {
  const state = {
    ...more,
    i: id,
    v: randomBytes(32).toString("base64url"),
    // Kept when the browser has one, so that redirects in two tabs do not undo each other.
    b: browserBinding(request) ?? randomBytes(32).toString("base64url"),
    x: Math.floor(Date.now() / 1000) + STATE_TTL_SECONDS,
  } as T;
  reply.header("set-cookie", cookie(request, BINDING_COOKIE, state.b, STATE_TTL_SECONDS));
  return {
    state,
    sealed: keyring.seal(purpose, Buffer.from(JSON.stringify(state)), ""),
    challenge: createHash("sha256").update(state.v).digest("base64url"),
  };
}

/** The state a callback carries, or why it is refused (before the authorization server is asked anything). */
export function openRedirectState<T extends RedirectState>(
  keyring: ClusterKeyring,
  purpose: Purpose,
  request: FastifyRequest,
  state: unknown,
): { ok: true; state: T } | SignInRefused {
  if (typeof state !== "string" || state.length > MAX_STATE_LENGTH) return { ok: false, refusal: "state" };
  const opened = keyring.open(purpose, state, "");
  if (!opened.ok) return { ok: false, refusal: "state" };
  const sealed = JSON.parse(opened.plaintext.toString("utf8")) as T;
  if (!isElicitationId(sealed.i)) return { ok: false, refusal: "state" };
  if (Date.now() / 1000 >= sealed.x) return { ok: false, refusal: "expired", id: sealed.i };
  if (browserBinding(request) !== sealed.b) return { ok: false, refusal: "browser", id: sealed.i };
  return { ok: true, state: sealed };
}

/** The callback's authorization code, or the authorization server's refusal. */
export function callbackCode(query: Record<string, unknown>, id: string): { ok: true; code: string } | SignInRefused {
  if (query.error !== undefined)
    return { ok: false, refusal: query.error === "access_denied" ? "denied" : "refused", id };
  if (typeof query.code !== "string" || query.code.length === 0 || query.code.length > MAX_CODE_LENGTH)
    return { ok: false, refusal: "refused", id };
  return { ok: true, code: query.code };
}

/** SameSite=Lax: sent on the authorization server's redirect back, a cross-site navigation. */
export function cookie(request: FastifyRequest, name: string, value: string, maxAgeSeconds: number): string {
  return pageCookie(request, { name, value, maxAgeSeconds, sameSite: "Lax" });
}

function browserBinding(request: FastifyRequest): string | undefined {
  const value = cookieValue(request, BINDING_COOKIE);
  return value !== undefined && BINDING.test(value) ? value : undefined;
}
