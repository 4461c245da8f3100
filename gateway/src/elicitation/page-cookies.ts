/**
 * The elicitation page's cookies (the CSRF nonce, the sign-in's browser binding and proof): all
 * HttpOnly, Secure when the browser reached the gateway over HTTPS (directly or through a TLS
 * proxy), and without Path, so the default is the folder of the page and of its callback alike
 * (/elicitations), which also holds behind a path prefix.
 */
import type { FastifyRequest } from "fastify";

/** A `Set-Cookie` value for this request's page. */
export function pageCookie(
  request: FastifyRequest,
  cookie: { name: string; value: string; maxAgeSeconds: number; sameSite: "Strict" | "Lax" },
): string {
  const secure = request.protocol === "https" || request.headers["x-forwarded-proto"] === "https";
  const { name, value, maxAgeSeconds, sameSite } = cookie;
  return `${name}=${value}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=${sameSite}${secure ? "; Secure" : ""}`;
}

/** The value of the request's cookie `name`, or undefined when absent or empty. */
export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  for (const pair of (request.headers.cookie ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at).trim() === name) {
      const value = pair.slice(at + 1).trim();
      return value === "" ? undefined : value;
    }
  }
  return undefined;
}
