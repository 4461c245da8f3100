/**
 * `atrium config create` with a backend's OAuth 2.0 client credentials, against a real control
 * plane: the flags become `backendSecret.oauth2ClientCredentials` (a stored client secret or
 * `${env:…}`), and what the flags cannot mean together is refused before any request. Also a
 * credential elicited from each user (`--backend-elicit`), with or without OAuth.
 */
import type { Stack } from "@atrium/gateway/testing";
import { describe, expect, it } from "vitest";
import { type CliStack, fails, json, runAtrium, withCliStack } from "../testing.ts";

let stack: Stack;
let newEnv: CliStack["newEnv"];
const atrium = withCliStack((cli) => ({ stack, newEnv } = cli));

const TOKEN_URL = "https://auth.example.com/oauth/token";

describe("config create --backend-token-url", () => {
  it("creates a plan whose gateways get a token with a stored client secret, or one from ${env:…}", async () => {
    const secret = json(
      await atrium(
        ["secret", "create", "backend-client", "--value-stdin", "-o", "json"],
        "client-secret-of-the-backend\n",
      ),
    );
    const base = ["config", "create", "--serviceId", stack.serviceId, "--backendEndpoint", stack.backend.url];
    const stored = json(
      await atrium([
        ...base.slice(0, 2),
        "cc-stored",
        ...base.slice(2),
        "--backend-token-url",
        TOKEN_URL,
        "--backend-client-id",
        "atrium-gateway",
        "--backend-client-secret",
        secret.id,
        "--backend-scope",
        "pets:read",
        "pets:write",
        "--backend-resource",
        "https://petstore.example.com/",
        "-o",
        "json",
      ]),
    );
    expect(stored.backendSecret).toEqual({
      in: "header",
      name: "Authorization",
      oauth2ClientCredentials: {
        tokenUrl: TOKEN_URL,
        clientId: "atrium-gateway",
        clientSecret: { secretId: secret.id },
        tokenEndpointAuthMethod: "client_secret_basic",
        scopes: ["pets:read", "pets:write"],
        resource: "https://petstore.example.com/",
      },
    });
    const fromEnv = json(
      await atrium([
        ...base.slice(0, 2),
        "cc-env",
        ...base.slice(2),
        "--backend-token-url",
        TOKEN_URL,
        "--backend-client-id",
        "atrium-gateway",
        "--backend-client-secret-env",
        "ATRIUM_BACKEND_SECRET_CLIENT",
        "--backend-client-auth",
        "post",
        "--backend-audience",
        "https://api.example.com",
        "-o",
        "json",
      ]),
    );
    expect(fromEnv.backendSecret.oauth2ClientCredentials).toMatchObject({
      clientSecret: { env: "${env:ATRIUM_BACKEND_SECRET_CLIENT}" },
      tokenEndpointAuthMethod: "client_secret_post",
      audience: "https://api.example.com",
    });
  });

  it("refuses flags that cannot go together, before any request", async () => {
    const loggedOut = newEnv();
    const create = (flags: string[]) =>
      runAtrium(["config", "create", "x", "--serviceId", stack.serviceId, "--backendEndpoint", "http://b", ...flags], {
        env: loggedOut,
      });
    const cc = ["--backend-token-url", TOKEN_URL, "--backend-client-id", "gw"];
    fails(
      await create(["--backend-client-id", "gw"]),
      2,
      "error: --backend-client-id needs --backend-token-url <url>: it is a client-credentials setting\n",
    );
    fails(
      await create([...cc, "--backend-client-secret-env", "X", "--backend-secret-prefix", "Bearer "]),
      2,
      "--backend-token-url and --backend-secret-prefix cannot be used together: a client-credentials token is always " +
        "sent as 'Authorization: Bearer <token>'; keep one",
    );
    fails(
      await create(cc),
      2,
      "--backend-token-url needs --backend-client-secret <secret_id> or --backend-client-secret-env <NAME>",
    );
    fails(
      await create([...cc, "--backend-client-secret", "a", "--backend-client-secret-env", "X"]),
      2,
      "--backend-client-secret and --backend-client-secret-env cannot be used together",
    );
    fails(
      await create(["--backend-token-url", TOKEN_URL, "--backend-client-secret-env", "X"]),
      2,
      "--backend-token-url needs --backend-client-id <id>",
    );
    fails(
      await create([...cc, "--backend-client-secret-env", "X", "--backend-client-auth", "jwt"]),
      2,
      "--backend-client-auth must be basic or post, not 'jwt'",
    );
  });
});

describe("config create --backend-elicit", () => {
  it("creates a plan whose gateways ask each user for the key, in the header and prefix given, without OAuth", async () => {
    const plan = json(
      await atrium([
        "config",
        "create",
        "elicited",
        "--serviceId",
        stack.serviceId,
        "--backendEndpoint",
        stack.backend.url,
        "--backend-elicit",
        "Your Pet Store API key",
        "--backend-secret-header",
        "X-Pet-Key",
        "--backend-secret-prefix",
        "Key ",
        "-o",
        "json",
      ]),
    );
    expect(plan.backendSecret).toEqual({
      elicit: { description: "Your Pet Store API key" },
      in: "header",
      name: "X-Pet-Key",
      prefix: "Key ",
    });
    expect(plan.oauth).toBeUndefined();
  });

  it("with --backend-elicit-sign-in-client-id and OAuth, the page signs each user in first; without OAuth the control plane refuses it", async () => {
    const base = ["config", "create", "--serviceId", stack.serviceId, "--backendEndpoint", stack.backend.url];
    const signIn = ["--backend-elicit", "Your Pet Store API key", "--backend-elicit-sign-in-client-id", "atrium-page"];
    const plan = json(
      await atrium([
        ...base.slice(0, 2),
        "elicited-sign-in",
        ...base.slice(2),
        ...signIn,
        "--oauth-issuer",
        "https://login.example.com",
        "-o",
        "json",
      ]),
    );
    expect(plan.backendSecret).toEqual({
      elicit: { description: "Your Pet Store API key", signIn: { clientId: "atrium-page" } },
      in: "header",
      name: "Authorization",
    });
    fails(
      await atrium([...base.slice(0, 2), "elicited-sign-in-no-oauth", ...base.slice(2), ...signIn]),
      1,
      "backendSecret.elicit.signIn needs oauth",
    );
  });

  it("refuses it with another source, before any request", async () => {
    const loggedOut = newEnv();
    const create = (flags: string[]) =>
      runAtrium(["config", "create", "x", "--serviceId", stack.serviceId, "--backendEndpoint", "http://b", ...flags], {
        env: loggedOut,
      });
    fails(
      await create(["--backend-elicit", "Your key", "--backend-secret", "s"]),
      2,
      "--backend-elicit and --backend-secret cannot be used together: the backend secret has one source",
    );
    fails(
      await create(["--backend-elicit", "Your key", "--backend-token-url", TOKEN_URL, "--backend-client-id", "gw"]),
      2,
      "--backend-token-url and --backend-elicit cannot be used together",
    );
    fails(
      await create(["--backend-elicit-sign-in-client-id", "atrium-page"]),
      2,
      "--backend-elicit-sign-in-client-id needs --backend-elicit <description>",
    );
  });
});
