/**
 * CSRF protection of the elicitation page's forms: a signed double-submit token (OWASP's "signed
 * double-submit cookie"). Showing the form sets a random nonce in a cookie (HttpOnly,
 * SameSite=Strict, Secure over HTTPS) and puts HMAC(cluster key, id and nonce) in a hidden field;
 * a submit is accepted only with both, matching. A cross-site form post carries no SameSite=Strict
 * cookie; another site cannot read the token, nor forge one for a nonce it planted (cookie
 * tossing from a sibling domain) without the cluster key. Any replica checks it (the key is the
 * cluster's); nothing is stored. Fetch Metadata is checked too: a browser that says the post came
 * from another site (`Sec-Fetch-Site`) is refused whatever it carries.
 */
import { randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ClusterKeyring } from "./cluster-keys.ts";
import { cookieValue, pageCookie } from "./page-cookies.ts";

export const CSRF_COOKIE = "atrium-elicitation";
const NONCE = /^[A-Za-z0-9_-]{43}$/;
/** As long as an elicitation can live (ELICITATION_MAX_TTL_SECONDS), so the cookie outlives no link. */
const COOKIE_MAX_AGE_SECONDS = 900;

function message(id: string, nonce: string): string {
  return `${id}.${nonce}`;
}

/**
 * The browser's nonce (kept, so two tabs of one browser do not undo each other) or a new one, set
 * in the cookie again so that it lives as long as the form just shown.
 */
function nonceFor(request: FastifyRequest, reply: FastifyReply): string {
  const nonce = cookieNonce(request) ?? randomBytes(32).toString("base64url");
  reply.header(
    "set-cookie",
    pageCookie(request, { name: CSRF_COOKIE, value: nonce, maxAgeSeconds: COOKIE_MAX_AGE_SECONDS, sameSite: "Strict" }),
  );
  return nonce;
}

/** The hidden field's value for this browser and elicitation id (sets the cookie when the browser has none). */
export function formToken(keyring: ClusterKeyring, id: string, request: FastifyRequest, reply: FastifyReply): string {
  return keyring.sign("elicitation-form", message(id, nonceFor(request, reply)));
}

/** Whether a submit carries this browser's cookie and a token signed for it and this id, from this site. */
export function csrfHolds(keyring: ClusterKeyring, id: string, request: FastifyRequest, token: string | null): boolean {
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin") return false;
  const nonce = cookieNonce(request);
  return nonce !== undefined && token !== null && keyring.verify("elicitation-form", message(id, nonce), token);
}

function cookieNonce(request: FastifyRequest): string | undefined {
  const value = cookieValue(request, CSRF_COOKIE);
  return value !== undefined && NONCE.test(value) ? value : undefined;
}
