/**
 * `atrium config create` with a backend's OAuth 2.0 client credentials, against a real control
 * plane: the flags become `backendSecret.oauth2ClientCredentials` (a stored client secret or
 * `${env:…}`), and what the flags cannot mean together is refused before any request. Also a
 * credential elicited from each user (`--backend-elicit`), with or without OAuth, each caller's
 * token exchanged (`--backend-token-exchange`) and each user's own authorization
 * (`--backend-authorization-code`), read back as the control plane stores it.
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
      "error: --backend-client-id needs --backend-token-url <url>, --backend-token-exchange or " +
        "--backend-authorization-code: it is a client-credentials, token-exchange or authorization-code setting\n",
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
        "--backend-actor-token",
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
        actorToken: "clientCredentials",
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
      "--backend-issuer needs --backend-token-exchange or --backend-authorization-code: it is a token-exchange or " +
        "authorization-code setting",
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

describe("config create --backend-authorization-code", () => {
  const AUTHORIZATION_URL = "https://auth.example.com/oauth/authorize";

  /** The plan `config create` made, as `config get` then reads it from the control plane. */
  async function createdAndStored(name: string, flags: string[]) {
    const base = ["config", "create", name, "--serviceId", stack.serviceId, "--backendEndpoint", stack.backend.url];
    const created = json(await atrium([...base, ...flags, "-o", "json"]));
    const stored = json(await atrium(["config", "get", created.id, "-o", "json"]));
    expect(created.backendSecret).toEqual(stored.backendSecret);
    return stored;
  }

  it("creates a plan whose users each authorize the backend, at an issuer with a client secret, stored as given", async () => {
    const secret = json(
      await atrium(["secret", "create", "grant-client", "--value-stdin", "-o", "json"], "grant-client-secret\n"),
    );
    const stored = await createdAndStored("granted", [
      "--oauth-issuer",
      "https://login.example.com/",
      "--backend-authorization-code",
      "--backend-issuer",
      "https://auth.example.com/",
      "--backend-revocation-url",
      "https://auth.example.com/oauth/revoke",
      "--backend-client-id",
      "atrium-gateway",
      "--backend-client-secret",
      secret.id,
      "--backend-client-auth",
      "post",
      "--backend-scope",
      "offline_access",
      "pets:read",
      "--backend-resource",
      "https://petstore.example.com/",
      "--backend-authorization-description",
      "Let the agent see your pets",
    ]);
    expect(stored.backendSecret).toEqual({
      in: "header",
      name: "Authorization",
      oauth2AuthorizationCode: {
        issuer: "https://auth.example.com/",
        revocationUrl: "https://auth.example.com/oauth/revoke",
        clientId: "atrium-gateway",
        clientSecret: { secretId: secret.id },
        tokenEndpointAuthMethod: "client_secret_post",
        scopes: ["offline_access", "pets:read"],
        resource: "https://petstore.example.com/",
        description: "Let the agent see your pets",
      },
    });
  });

  it("creates one for a public client at an authorization URL and a token URL, without OAuth on the plan", async () => {
    const stored = await createdAndStored("granted-public", [
      "--backend-authorization-code",
      "--backend-authorization-url",
      AUTHORIZATION_URL,
      "--backend-token-url",
      TOKEN_URL,
      "--backend-client-id",
      "atrium-public",
    ]);
    expect(stored.backendSecret).toEqual({
      in: "header",
      name: "Authorization",
      oauth2AuthorizationCode: { authorizationUrl: AUTHORIZATION_URL, tokenUrl: TOKEN_URL, clientId: "atrium-public" },
    });
    expect(stored.oauth).toBeUndefined();
  });

  it("refuses what the flags cannot mean together, before any request", async () => {
    const create = (flags: string[]) =>
      runAtrium(["config", "create", "x", "--serviceId", stack.serviceId, "--backendEndpoint", "http://b", ...flags], {
        env: newEnv(),
      });
    const code = ["--backend-authorization-code", "--backend-client-id", "gw"];
    const atIssuer = [...code, "--backend-issuer", "https://auth.example.com/"];
    const refusals: [string[], string][] = [
      [
        code,
        "--backend-authorization-code needs --backend-issuer <url>, or --backend-authorization-url <url> with " +
          "--backend-token-url <url>: it needs the authorization server's endpoints",
      ],
      [
        [...atIssuer, "--backend-token-url", TOKEN_URL],
        "--backend-issuer and --backend-token-url cannot be used together: the issuer's metadata names the endpoints",
      ],
      [
        [...atIssuer, "--backend-authorization-url", AUTHORIZATION_URL],
        "--backend-issuer and --backend-authorization-url cannot be used together",
      ],
      [
        [...code, "--backend-authorization-url", AUTHORIZATION_URL],
        "--backend-authorization-url needs --backend-token-url <url>",
      ],
      [[...code, "--backend-token-url", TOKEN_URL], "--backend-token-url needs --backend-authorization-url <url>"],
      [
        ["--backend-authorization-url", AUTHORIZATION_URL, "--backend-token-url", TOKEN_URL],
        "--backend-authorization-url needs --backend-authorization-code: it is an authorization-code setting",
      ],
      [
        ["--backend-authorization-description", "Your pets"],
        "--backend-authorization-description needs --backend-authorization-code",
      ],
      [
        [
          "--backend-token-exchange",
          "--backend-issuer",
          "https://auth.example.com/",
          "--backend-revocation-url",
          TOKEN_URL,
        ],
        "--backend-token-exchange and --backend-revocation-url cannot be used together: it is not a token-exchange setting",
      ],
      [
        [...atIssuer, "--backend-token-exchange"],
        "--backend-authorization-code and --backend-token-exchange cannot be used together",
      ],
      [
        [...atIssuer, "--backend-audience", "https://api.example.com"],
        "--backend-authorization-code and --backend-audience cannot be used together: it is not an " +
          "authorization-code setting",
      ],
      [
        [...atIssuer, "--backend-requested-token-type", "jwt"],
        "--backend-authorization-code and --backend-requested-token-type cannot be used together",
      ],
      [
        [...atIssuer, "--backend-actor-token"],
        "--backend-authorization-code and --backend-actor-token cannot be used together",
      ],
      [
        [...atIssuer, "--backend-secret-prefix", "Bearer "],
        "--backend-authorization-code and --backend-secret-prefix cannot be used together: each user's authorized " +
          "token is always sent as 'Authorization: Bearer <token>'; keep one",
      ],
      [[...atIssuer, "--backend-elicit", "Your key"], "--backend-authorization-code and --backend-elicit cannot"],
      [
        ["--backend-authorization-code", "--backend-issuer", "https://auth.example.com/"],
        "--backend-authorization-code needs --backend-client-id <id>",
      ],
      [
        [...atIssuer, "--backend-client-auth", "basic"],
        "--backend-client-auth needs --backend-client-secret <secret_id> or --backend-client-secret-env <NAME>: " +
          "without a client secret the client is public and does not authenticate",
      ],
      [
        [...atIssuer, "--backend-client-secret-env", "X", "--backend-client-auth", "private-key-jwt"],
        "--backend-client-auth must be basic or post, not 'private-key-jwt'",
      ],
      [
        [...atIssuer, "--backend-client-secret", "s", "--backend-client-secret-env", "X"],
        "--backend-client-secret and --backend-client-secret-env cannot be used together",
      ],
    ];
    for (const [flags, message] of refusals) fails(await create(flags), 2, message);
  });

  it("is refused by the control plane with missing arguments asked of the user, and shown in --help", async () => {
    const refused = await atrium([
      "config",
      "create",
      "granted-and-asking",
      "--serviceId",
      stack.serviceId,
      "--backendEndpoint",
      stack.backend.url,
      "--elicit-missing-arguments",
      "--backend-authorization-code",
      "--backend-issuer",
      "https://auth.example.com/",
      "--backend-client-id",
      "gw",
    ]);
    fails(refused, 1, "elicitMissingArguments cannot be combined with backendSecret.elicit or oauth2AuthorizationCode");
    const help = (await runAtrium(["config", "create", "--help"], { env: newEnv() })).stdout.replace(/\s+/g, " ");
    expect(help).toContain("e.g. --backend-authorization-code --backend-issuer https://auth.example.com/");
    expect(help).toContain("<gateway origin>/elicitations/authorized");
  });
});
