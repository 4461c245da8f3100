/**
 * The backend subject of tool-call audit events for the sources that act as the caller with OAuth
 * (a token exchange, each user's grant, an elicited credential): the token's issuer and subject.
 * The other sources, and these without OAuth, are checked end to end in audit.stack.test.ts and
 * token-exchange.test.ts.
 */
import { describe, expect, it } from "vitest";
import { backendSubject } from "./audit.ts";
import type { TokenPrincipal } from "./auth/bearer.ts";

const principal: TokenPrincipal = {
  issuer: "https://as.example.test",
  subject: "alice",
  scopes: new Set(),
  audiences: ["mcp"],
  resource: undefined,
  validUntilMs: Date.now() + 60_000,
  user: "https://as.example.test alice",
};

describe("backendSubject", () => {
  for (const source of ["tokenExchange", "oauth2AuthorizationCode", "elicit"] as const) {
    it(`names the caller of a ${source} call by issuer and subject, or the session without OAuth`, () => {
      const secret = { source, in: "header" as const, name: "Authorization" };
      expect(backendSubject(secret, principal)).toEqual({ kind: "user", issuer: principal.issuer, id: "alice" });
      expect(backendSubject(secret, undefined)).toEqual({ kind: "session" });
    });
  }

  it("names a stored secret without an id (an older control plane) by its kind only, never its value", () => {
    const secret = { source: "value" as const, value: "the-value", in: "header" as const, name: "Authorization" };
    expect(backendSubject(secret, principal)).toEqual({ kind: "secret" });
  });
});
