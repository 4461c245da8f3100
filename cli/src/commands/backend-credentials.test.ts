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

describe("config create --backend-token-exchange", () => {
  it("creates a plan whose gateways exchange each caller's token, at a token URL or an issuer's", async () => {
    const key = json(
      await atrium(
        ["secret", "create", "exchange-key", "--value-stdin", "-o", "json"],
        "-----BEGIN PRIVATE KEY-----\nnot-a-real-key\n-----END PRIVATE KEY-----\n",
      ),
    );
    const plan = json(
      await atrium([
        "config",
        "create",
        "exchange",
        "--serviceId",
        stack.serviceId,
        "--backendEndpoint",
        stack.backend.url,
        "--oauth-issuer",
        "https://login.example.com/",
        "--backend-token-exchange",
        "--backend-issuer",
        "https://auth.example.com/",
        "--backend-client-id",
        "atrium-gateway",
        "--backend-client-secret",
        key.id,
        "--backend-client-auth",
        "private-key-jwt",
        "--backend-audience",
        "https://petstore.example.com",
        "--backend-requested-token-type",
        "jwt",
        "-o",
        "json",
      ]),
    );
    expect(plan.backendSecret).toEqual({
      in: "header",
      name: "Authorization",
      tokenExchange: {
        issuer: "https://auth.example.com/",
        clientId: "atrium-gateway",
        clientSecret: { secretId: key.id },
        tokenEndpointAuthMethod: "private_key_jwt",
        audience: "https://petstore.example.com",
        requestedTokenType: "urn:ietf:params:oauth:token-type:jwt",
      },
    });
  });

  it("refuses what the flags cannot mean together, before any request, and a plan without OAuth", async () => {
    const create = (flags: string[]) =>
      runAtrium(["config", "create", "x", "--serviceId", stack.serviceId, "--backendEndpoint", "http://b", ...flags], {
        env: newEnv(),
      });
    fails(
      await create(["--backend-issuer", "https://auth.example.com/"]),
      2,
      "--backend-issuer needs --backend-token-exchange: it is a token-exchange setting",
    );
    fails(
      await create(["--backend-token-exchange", "--backend-client-id", "gw"]),
      2,
      "--backend-token-exchange needs --backend-token-url <url> or --backend-issuer <url>",
    );
    fails(
      await create([
        "--backend-token-exchange",
        "--backend-token-url",
        TOKEN_URL,
        "--backend-issuer",
        "https://auth.example.com/",
      ]),
      2,
      "--backend-issuer and --backend-token-url cannot be used together",
    );
    fails(
      await create([
        "--backend-token-url",
        TOKEN_URL,
        "--backend-client-id",
        "gw",
        "--backend-client-secret-env",
        "X",
        "--backend-client-auth",
        "private-key-jwt",
      ]),
      2,
      "--backend-client-auth must be basic or post, not 'private-key-jwt'",
    );
    const secret = json(
      await atrium(["secret", "create", "exchange-client", "--value-stdin", "-o", "json"], "exchange-secret\n"),
    );
    const withoutOauth = await atrium([
      "config",
      "create",
      "exchange-no-oauth",
      "--serviceId",
      stack.serviceId,
      "--backendEndpoint",
      stack.backend.url,
      "--backend-token-exchange",
      "--backend-token-url",
      TOKEN_URL,
      "--backend-client-id",
      "gw",
      "--backend-client-secret",
      secret.id,
    ]);
    expect(withoutOauth.code).not.toBe(0);
    expect(withoutOauth.stderr).toContain("backendSecret.tokenExchange needs oauth");
  });
});
