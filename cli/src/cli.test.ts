/**
 * `atrium` end to end, in-process: every command in table and JSON output against a real
 * control plane and a real gateway (no mocks), and the messages and exit codes of bad input.
 */
import { randomUUID } from "node:crypto";
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { ApiClient, startTestControlPlane, TEST_ADMIN, type TestControlPlane } from "@atrium/control-plane/testing";
import type { Gateway } from "@atrium/gateway";
import { startAuthorizationServer } from "@atrium/gateway/auth/testing";
import { FIXTURE_OPENAPI, type Stack, startStack, waitFor } from "@atrium/gateway/testing";
import type { Command } from "commander";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { credentialsPath } from "./config.ts";
import { createContext } from "./context.ts";
import { buildProgram } from "./program.ts";
import { type AtriumRun, runAtrium, testEnv } from "./testing.ts";

let stack: Stack;
let gateway: Gateway;
let env: NodeJS.ProcessEnv;
let documentServer: Server;
let documentUrl: string;
let closedPort: number;
const envs: NodeJS.ProcessEnv[] = [];

function newEnv(): NodeJS.ProcessEnv {
  const created = testEnv();
  envs.push(created);
  return created;
}

const atrium = (args: string[], stdin?: string) => runAtrium(args, { env, ...(stdin === undefined ? {} : { stdin }) });

/** The run succeeded (the message shows stderr when it did not). */
function ok(run: AtriumRun): AtriumRun {
  expect(run.code, `stderr: ${run.stderr}\nstdout: ${run.stdout}`).toBe(0);
  return run;
}
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the CLI printed
function json(run: AtriumRun): any {
  return JSON.parse(ok(run).stdout);
}
/** The value of a row of a key/value table, e.g. `ID   123` → "123". */
function row(run: AtriumRun, header: string): string | undefined {
  return new RegExp(`^${header}\\s{2,}(.*)$`, "m").exec(run.stdout)?.[1]?.trim();
}

/** `tools/list` (2026-07-28) on an MCP endpoint with these credentials: the status, challenge and tools. */
async function mcpToolsList(url: string, credentials: Record<string, string>) {
  const response = await request(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/list",
      ...credentials,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "cli-test", version: "1" },
        },
      },
    }),
  });
  const text = await response.body.text();
  const tools = response.statusCode === 200 ? (JSON.parse(text).result?.tools as { name: string }[]) : [];
  return {
    status: response.statusCode,
    challenge: response.headers["www-authenticate"],
    tools: tools.map((tool) => tool.name),
  };
}

async function login(into: NodeJS.ProcessEnv, controlPlane: TestControlPlane | string): Promise<AtriumRun> {
  const url = typeof controlPlane === "string" ? controlPlane : controlPlane.url;
  return runAtrium(["login", "--control-plane", url, "--username", TEST_ADMIN.username], {
    env: into,
    stdin: `${TEST_ADMIN.password}\n`,
  });
}

beforeAll(async () => {
  // `service import <url>` reads from a listener on loopback, which the SSRF policy refuses
  // unless an operator opens it; the in-process control plane reads this at start.
  process.env.ATRIUM_IMPORT_ALLOW_HOSTS = "127.0.0.1";
  stack = await startStack();
  gateway = await stack.startGateway();
  env = newEnv();
  documentServer = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" }).end(FIXTURE_OPENAPI);
  });
  await new Promise<void>((resolve) => documentServer.listen(0, "127.0.0.1", resolve));
  documentUrl = `http://127.0.0.1:${(documentServer.address() as AddressInfo).port}/openapi.json`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  ok(await login(env, stack.controlPlane));
});

afterAll(async () => {
  await stack?.close();
  documentServer?.closeAllConnections();
  await new Promise((resolve) => documentServer?.close(resolve));
  for (const each of envs) rmSync(each.ATRIUM_CONFIG_DIR as string, { recursive: true, force: true });
});

describe("login, info, logout", () => {
  it("logs in with the password on stdin and keeps the token in a 0600 file in a 0700 folder", async () => {
    const own = newEnv();
    const run = ok(await login(own, stack.controlPlane));
    expect(run.stdout).toContain(`Logged in to ${stack.controlPlane.url} as admin (organization default)`);
    const file = credentialsPath(own);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(own.ATRIUM_CONFIG_DIR as string).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    expect(stored).toMatchObject({
      controlPlaneUrl: stack.controlPlane.url,
      organization: "default",
      username: "admin",
    });
    expect(stored.token).toMatch(/^atr_s_/);
    expect(Date.parse(stored.expiresAt)).toBeGreaterThan(Date.now());
  });

  it("prints the login as JSON, without the token", async () => {
    const own = newEnv();
    const out = json(
      await runAtrium(
        ["login", "--control-plane", stack.controlPlane.url, "--username", "admin", "--password-stdin", "-o", "json"],
        { env: own, stdin: TEST_ADMIN.password },
      ),
    );
    expect(out).toMatchObject({ controlPlaneUrl: stack.controlPlane.url, organization: "default", username: "admin" });
    expect(out.credentialsFile).toBe(credentialsPath(own));
    expect(JSON.stringify(out)).not.toContain("atr_s_");
  });

  it("refuses a wrong password, an empty one and an unknown organization, storing nothing", async () => {
    const own = newEnv();
    const base = ["login", "--control-plane", stack.controlPlane.url, "--username", "admin"];
    const wrong = await runAtrium(base, { env: own, stdin: "nope\n" });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("Organization, user name or password is wrong (check them and try again)");
    const empty = await runAtrium(base, { env: own, stdin: "" });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("No password was given");
    const otherOrg = await runAtrium([...base, "--organization", "nowhere"], { env: own, stdin: "x" });
    expect(otherOrg.code).toBe(1);
    expect(() => statSync(credentialsPath(own))).toThrow();
  });

  it("needs --username (usage error) and an http(s) control-plane URL", async () => {
    const missing = await runAtrium(["login"], { env: newEnv(), stdin: "x" });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--username <user>' not specified");
    const badUrl = await runAtrium(["login", "--username", "a", "--control-plane", "ftp://x"], {
      env: newEnv(),
      stdin: "x",
    });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain("'ftp://x' is not an http:// or https:// URL");
  });

  it("info shows both versions, the URL and the organization", async () => {
    const table = ok(await atrium(["info"]));
    expect(row(table, "CONTROL PLANE VERSION")).toBe("0.1.0");
    expect(row(table, "CLI VERSION")).toBe("0.1.0");
    expect(row(table, "CONTROL PLANE URL")).toBe(stack.controlPlane.url);
    expect(row(table, "ORGANIZATION")).toBe("default");
    expect(json(await atrium(["info", "--output", "json"]))).toMatchObject({
      controlPlaneVersion: "0.1.0",
      cliVersion: "0.1.0",
      controlPlaneUrl: stack.controlPlane.url,
      organization: "default",
      username: "admin",
    });
    expect(ok(await atrium(["info", "--output", "yaml"])).stdout).toContain("controlPlaneVersion: 0.1.0");
  });

  it("logout revokes the token on the server and deletes the file", async () => {
    const own = newEnv();
    ok(await login(own, stack.controlPlane));
    const token = JSON.parse(readFileSync(credentialsPath(own), "utf8")).token as string;
    const run = ok(await runAtrium(["logout"], { env: own }));
    expect(run.stdout).toContain(`Logged out of ${stack.controlPlane.url}.`);
    expect(() => statSync(credentialsPath(own))).toThrow();
    const refused = await new ApiClient(stack.controlPlane.url, token).call("GET", "/api/v1/info");
    expect(refused.status).toBe(401);
    expect(json(await runAtrium(["logout", "-o", "json"], { env: own }))).toEqual({ loggedOut: false });
    const after = await runAtrium(["info"], { env: own });
    expect(after.code).toBe(3);
    expect(after.stderr).toContain("You are not logged in: run `atrium login --username <user>`");
  });
});

describe("service", () => {
  it("imports a YAML file, a JSON file and a URL; lists, shows and deletes", async () => {
    const dir = env.ATRIUM_CONFIG_DIR as string;
    const yamlFile = join(dir, "pets.yaml");
    writeFileSync(yamlFile, stringify(JSON.parse(FIXTURE_OPENAPI)));
    const jsonFile = join(dir, "pets.json");
    writeFileSync(jsonFile, FIXTURE_OPENAPI);

    const fromYaml = ok(await atrium(["service", "import", yamlFile, "--name", "pets-yaml", "--version", "1"]));
    expect(row(fromYaml, "ID")).toMatch(/^[0-9a-f-]{36}$/);
    expect(row(fromYaml, "OPERATION COUNT")).toBe("7");
    expect(row(fromYaml, "TITLE")).toBe("Fixture pets");

    const fromJson = json(
      await atrium([
        "service",
        "import",
        jsonFile,
        "--name",
        "pets-json",
        "--version",
        "2",
        "--description",
        "uploaded",
        "--output",
        "json",
      ]),
    );
    expect(fromJson).toMatchObject({ name: "pets-json", version: "2", description: "uploaded", operationCount: 7 });

    const fromUrl = json(
      await atrium(["service", "import", documentUrl, "--name", "pets-url", "--version", "3", "-o", "json"]),
    );
    expect(fromUrl).toMatchObject({ name: "pets-url", operationCount: 7 });

    const table = ok(await atrium(["service", "list"]));
    expect(table.stdout).toMatch(/^ID\s+NAME\s+VERSION\s+TITLE\s+OPERATIONS\s+CREATED$/m);
    expect(table.stdout).toContain(fromJson.id);
    const listed = json(await atrium(["service", "list", "-o", "json"]));
    expect(listed.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(["fixture", "pets-yaml", "pets-json", "pets-url"]),
    );

    const shown = ok(await atrium(["service", "get", fromJson.id]));
    expect(row(shown, "NAME")).toBe("pets-json");
    expect(shown.stdout).toMatch(/^getPet\s+GET\s+\/pets\/\{petId\}\s+Get a pet$/m);
    const detail = json(await atrium(["service", "get", fromJson.id, "-o", "json"]));
    expect(detail.operations).toHaveLength(7);

    expect(ok(await atrium(["service", "delete", fromUrl.id])).stdout).toBe(`Deleted service ${fromUrl.id}.\n`);
    expect(json(await atrium(["service", "delete", fromJson.id, "-o", "json"]))).toEqual({
      id: fromJson.id,
      deleted: true,
    });
  });

  it("explains a bad document, a missing file, a missing flag and an unknown id", async () => {
    const bad = join(env.ATRIUM_CONFIG_DIR as string, "bad.yaml");
    writeFileSync(bad, "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\n");
    const invalid = await atrium(["service", "import", bad, "--name", "bad", "--version", "1"]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/^error: .*operation/m);

    const missing = await atrium(["service", "import", "/nowhere/pets.yaml", "--name", "x", "--version", "1"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Cannot read /nowhere/pets.yaml: no such file");

    const noVersion = await atrium(["service", "import", bad, "--name", "x"]);
    expect(noVersion.code).toBe(2);
    expect(noVersion.stderr).toContain("required option '--version <version>' not specified");

    const id = randomUUID();
    const unknown = await atrium(["service", "get", id]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`Service '${id}' does not exist in this organization`);
    expect((await atrium(["service", "delete", id])).stderr).toContain(`Service '${id}' does not exist`);

    const notAnId = await atrium(["service", "get", "not-an-id"]);
    expect(notAnId.code).toBe(1);
    expect(notAnId.stderr).toContain("params.id: must be a record id (a UUID)");

    const badName = await atrium(["service", "import", bad, "--name", "Not_Valid", "--version", "1"]);
    expect(badName.code).toBe(1);
    expect(badName.stderr).toContain("querystring.name");
  });
});

describe("config", () => {
  it("creates plans (JSON holds id and apiKey; the table shows the key once), lists, shows, deletes", async () => {
    const created = json(
      await atrium([
        "config",
        "create",
        "cli-plan",
        "--serviceId",
        stack.serviceId,
        "--backendEndpoint",
        `${stack.backend.url}/api`,
        "--apiKey",
        "--include",
        "listPets",
        "getPet",
        "--timeout-ms",
        "1500",
        "--exposure-mode",
        "PerOperation",
        "--output",
        "json",
      ]),
    );
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.apiKey).toMatch(/^atr_k_/);
    expect(created).toMatchObject({
      name: "cli-plan",
      hasApiKey: true,
      includedOperations: ["listPets", "getPet"],
      backendTimeoutMs: 1500,
      toolExposureMode: "PerOperation",
    });

    const table = ok(
      await atrium([
        "config",
        "create",
        "cli-plan-table",
        "--serviceId",
        stack.serviceId,
        "--backendEndpoint",
        stack.backend.url,
        "--apiKey",
        "--exclude",
        "slow,image",
      ]),
    );
    expect(row(table, "API KEY")).toMatch(/^atr_k_/);
    expect(row(table, "EXCLUDED OPERATIONS")).toBe("slow, image");
    expect(table.stdout).toContain("Save the API key now: it is shown only this once.");

    const noKey = json(
      await atrium([
        "config",
        "create",
        "cli-plan-open",
        "--serviceId",
        stack.serviceId,
        "--backendEndpoint",
        stack.backend.url,
        "-o",
        "json",
      ]),
    );
    expect(noKey.apiKey).toBeUndefined();
    expect(noKey.hasApiKey).toBe(false);

    const list = ok(await atrium(["config", "list"]));
    expect(list.stdout).toMatch(/^ID\s+NAME\s+SERVICE\s+BACKEND\s+AUTH\s+AUDIT\s+MODE$/m);
    expect(list.stdout).toMatch(
      new RegExp(`^${created.id}\\s+cli-plan\\s+${stack.serviceId}.*\\bapi key\\s+off\\b`, "m"),
    );
    expect(json(await atrium(["config", "list", "-o", "json"])).length).toBeGreaterThanOrEqual(4);

    const shown = ok(await atrium(["config", "get", created.id]));
    expect(row(shown, "BACKEND ENDPOINT")).toBe(`${stack.backend.url}/api`);
    expect(row(shown, "CLIENT AUTH")).toBe("api key");
    expect(row(shown, "AUDIT")).toBe("off");
    expect(row(shown, "OAUTH ISSUER")).toBeUndefined();
    const detail = json(await atrium(["config", "get", created.id, "-o", "json"]));
    expect(detail.apiKey).toBeUndefined();

    expect(ok(await atrium(["config", "delete", noKey.id])).stdout).toBe(`Deleted configuration plan ${noKey.id}.\n`);
    expect(json(await atrium(["config", "delete", created.id, "-o", "json"]))).toEqual({
      id: created.id,
      deleted: true,
    });
  });

  it("creates an OAuth plan with scopes, tool scopes and audit; get shows them; JSON and YAML as the API has them", async () => {
    const created = json(
      await atrium([
        "config",
        "create",
        "cli-plan-oauth",
        "--serviceId",
        stack.serviceId,
        "--backendEndpoint",
        stack.backend.url,
        "--oauth-issuer",
        "https://login.example.com/realms/pets",
        "--oauth-jwks-uri",
        "https://login.example.com/realms/pets/certs",
        "--oauth-audience",
        "atrium-petstore",
        "--oauth-resource",
        "https://mcp.example.com/mcp/default/cli-plan-oauth",
        "--oauth-scope",
        "pets:read",
        "mcp:use,pets:read",
        "--oauth-scope",
        "profile openid",
        "--oauth-tool-scope",
        "deletePet=pets:write,pets:admin",
        "--oauth-tool-scope",
        "createPet=pets:write",
        "--audit",
        "-o",
        "json",
      ]),
    );
    const oauth = {
      issuer: "https://login.example.com/realms/pets",
      jwksUri: "https://login.example.com/realms/pets/certs",
      audience: "atrium-petstore",
      resource: "https://mcp.example.com/mcp/default/cli-plan-oauth",
      requiredScopes: ["pets:read", "mcp:use", "profile", "openid"],
      toolScopes: { deletePet: ["pets:write", "pets:admin"], createPet: ["pets:write"] },
    };
    expect(created).toMatchObject({ name: "cli-plan-oauth", hasApiKey: false, audit: true, oauth });
    expect(created.apiKey).toBeUndefined();

    // JSON and YAML carry the record exactly as the REST API returns it.
    const record = (await stack.controlPlane.admin.call("GET", `/api/v1/configuration-plans/${created.id}`)).body;
    expect(json(await atrium(["config", "get", created.id, "-o", "json"]))).toEqual(record);
    expect(ok(await atrium(["config", "get", created.id, "-o", "yaml"])).stdout).toBe(stringify(record));

    const shown = ok(await atrium(["config", "get", created.id]));
    expect(row(shown, "CLIENT AUTH")).toBe("oauth");
    expect(row(shown, "OAUTH ISSUER")).toBe(oauth.issuer);
    expect(row(shown, "OAUTH JWKS URI")).toBe(oauth.jwksUri);
    expect(row(shown, "OAUTH AUDIENCE")).toBe("atrium-petstore");
    expect(row(shown, "OAUTH RESOURCE")).toBe(oauth.resource);
    expect(row(shown, "REQUIRED SCOPES")).toBe("pets:read mcp:use profile openid");
    expect(row(shown, "TOOL SCOPES")).toBe("createPet=pets:write; deletePet=pets:write pets:admin");
    expect(row(shown, "AUDIT")).toMatch(/^on\b/);
    expect(ok(await atrium(["config", "list"])).stdout).toMatch(
      new RegExp(`^${created.id}\\s+cli-plan-oauth\\s.*\\boauth\\s+on\\s+PerOperation$`, "m"),
    );

    // Only the issuer: the defaults are named in the table.
    const minimal = ok(
      await atrium([
        "config",
        "create",
        "cli-plan-oauth-min",
        "--serviceId",
        stack.serviceId,
        "--backendEndpoint",
        stack.backend.url,
        "--oauth-issuer",
        "https://login.example.com",
      ]),
    );
    expect(row(minimal, "CLIENT AUTH")).toBe("oauth");
    expect(row(minimal, "OAUTH JWKS URI")).toBe("(from the issuer's metadata)");
    expect(row(minimal, "OAUTH AUDIENCE")).toBe("(the endpoint's resource URL)");
    expect(row(minimal, "REQUIRED SCOPES")).toBe("-");
    expect(row(minimal, "AUDIT")).toBe("off");
    expect(minimal.stdout).not.toContain("Save the API key");
    const minimalId = row(minimal, "ID") as string;

    for (const id of [created.id, minimalId]) ok(await atrium(["config", "delete", id]));
  });

  it("refuses --apiKey with --oauth-issuer, and OAuth details without an issuer, before any request", async () => {
    const base = ["config", "create", "x", "--serviceId", stack.serviceId, "--backendEndpoint", "http://b"];
    // Not logged in: a refusal that needed the server would say so instead.
    const loggedOut = newEnv();
    const both = await runAtrium([...base, "--apiKey", "--oauth-issuer", "https://login.example.com"], {
      env: loggedOut,
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toBe(
      "error: --apiKey and --oauth-issuer cannot be used together: a plan has one client authentication mode, " +
        "an API key (x-atrium-key header) or OAuth bearer tokens; keep one\n",
    );
    for (const [flag, value] of [
      ["--oauth-jwks-uri", "https://login.example.com/certs"],
      ["--oauth-audience", "aud"],
      ["--oauth-resource", "https://mcp.example.com/x"],
      ["--oauth-scope", "pets:read"],
      ["--oauth-tool-scope", "getPet=pets:read"],
    ] as const) {
      const alone = await runAtrium([...base, flag, value], { env: loggedOut });
      expect(alone.code, flag).toBe(2);
      expect(alone.stderr).toContain(`error: ${flag} needs --oauth-issuer <url>: OAuth settings apply to a plan`);
    }
    const withIssuer = [...base, "--oauth-issuer", "https://i.example.com"];
    const badToolScope = await atrium([...withIssuer, "--oauth-tool-scope", "getPet"]);
    expect(badToolScope.code).toBe(2);
    expect(badToolScope.stderr).toContain("give it as tool=scope1,scope2");

    // What only the server knows is its to refuse, with the field named.
    const badIssuer = await atrium([...base, "--oauth-issuer", "login.example.com"]);
    expect(badIssuer.code).toBe(1);
    expect(badIssuer.stderr).toMatch(/^error: The request is invalid: body\.oauth\.issuer: /m);
    const discovery = await atrium([...withIssuer, "--oauth-tool-scope", "getPet=x", "--exposure-mode", "Discovery"]);
    expect(discovery.code).toBe(1);
    expect(discovery.stderr).toContain("oauth.toolScopes needs toolExposureMode PerOperation");
    const badScope = await atrium([...withIssuer, "--oauth-scope", 'pets"read']);
    expect(badScope.code).toBe(1);
    expect(badScope.stderr).toContain("body.oauth.requiredScopes");

    // The control plane refuses both modes too, whatever client sends them (create and replace).
    const bothModes = {
      name: "both-modes",
      serviceId: stack.serviceId,
      backendEndpoint: "http://b",
      apiKey: true,
      oauth: { issuer: "https://i.example.com" },
    };
    const { admin } = stack.controlPlane;
    for (const [method, path] of [
      ["POST", "/api/v1/configuration-plans"],
      ["PUT", `/api/v1/configuration-plans/${stack.planId}`],
    ] as const) {
      const refused = await admin.call(method, path, bothModes);
      expect(refused.status, method).toBe(400);
      expect(refused.body.errors).toEqual([
        { field: "body.oauth", message: "a plan has one client authentication mode: set apiKey or oauth, not both" },
      ]);
    }
    expect(json(await atrium(["config", "get", stack.planId, "-o", "json"]))).toMatchObject({ hasApiKey: true });
    expect(json(await atrium(["config", "get", stack.planId, "-o", "json"])).oauth).toBeUndefined();
  });

  it("an OAuth plan made with the CLI is enforced by the gateway: no token 401, tools filtered by scope", async () => {
    const issuer = await startAuthorizationServer();
    try {
      const plan = json(
        await atrium([
          "config",
          "create",
          "cli-plan-enforced",
          "--serviceId",
          stack.serviceId,
          "--backendEndpoint",
          `${stack.backend.url}/api`,
          "--oauth-issuer",
          issuer.issuer,
          "--oauth-jwks-uri",
          issuer.jwksUri,
          "--oauth-audience",
          "cli-enforced",
          "--oauth-scope",
          "tools:read",
          "--oauth-tool-scope",
          "getPet=pets:admin",
          "-o",
          "json",
        ]),
      );
      const groups = (await stack.controlPlane.admin.call("GET", "/api/v1/gateway-groups")).body.items;
      const group = groups.find((g: { name: string }) => g.name === "test");
      const exposition = await stack.controlPlane.admin.call("POST", "/api/v1/expositions", {
        name: "cli-plan-enforced",
        configurationPlanId: plan.id,
        gatewayGroupId: group.id,
      });
      expect(exposition.status, JSON.stringify(exposition.body)).toBe(201);
      const url = `${gateway.url}/mcp/${exposition.body.id}`;
      const bearer = async (scope: string) => ({
        authorization: `Bearer ${await issuer.mint({ aud: "cli-enforced", sub: "alice", scope })}`,
      });
      const reader = await bearer("tools:read");
      await waitFor(async () => (await mcpToolsList(url, reader)).status === 200, "the OAuth plan served");

      const anonymous = await mcpToolsList(url, {});
      expect(anonymous.status).toBe(401);
      expect(anonymous.challenge).toMatch(/^Bearer resource_metadata="/);
      expect((await mcpToolsList(url, { "x-atrium-key": stack.apiKey })).status).toBe(401);
      expect((await mcpToolsList(url, await bearer("pets:admin"))).status).toBe(403);
      const readerTools = (await mcpToolsList(url, reader)).tools;
      expect(readerTools).toContain("listPets");
      expect(readerTools).not.toContain("getPet");
      expect((await mcpToolsList(url, await bearer("tools:read pets:admin"))).tools).toContain("getPet");

      expect((await stack.controlPlane.admin.call("DELETE", `/api/v1/expositions/${exposition.body.id}`)).status).toBe(
        204,
      );
      ok(await atrium(["config", "delete", plan.id]));
    } finally {
      await issuer.close();
    }
  });

  it("update changes only what its flags name, switches between API key and OAuth, and merges OAuth fields", async () => {
    const created = json(
      await atrium([
        "config",
        "create",
        "cli-plan-update",
        "--serviceId",
        stack.serviceId,
        "--backendEndpoint",
        stack.backend.url,
        "--apiKey",
        "--include",
        "listPets,getPet",
        "--timeout-ms",
        "2500",
        "-o",
        "json",
      ]),
    );
    const update = (...args: string[]) => atrium(["config", "update", created.id, ...args]);

    const audited = json(await update("--audit", "-o", "json"));
    expect(audited).toMatchObject({ hasApiKey: true, audit: true, includedOperations: ["listPets", "getPet"] });
    expect(audited.apiKey).toBeUndefined();

    const keepsKey = await update("--oauth-issuer", "https://login.example.com");
    expect(keepsKey.code).toBe(2);
    expect(keepsKey.stderr).toContain(
      "error: --oauth-issuer and its API key cannot be used together: a plan has one client authentication mode",
    );
    expect(keepsKey.stderr).toContain("add --no-apiKey to switch");

    const toOAuth = json(
      await update(
        "--no-apiKey",
        "--oauth-issuer",
        "https://login.example.com",
        "--oauth-scope",
        "mcp:use",
        "--oauth-tool-scope",
        "getPet=pets:read",
        "-o",
        "json",
      ),
    );
    expect(toOAuth).toMatchObject({
      hasApiKey: false,
      audit: true,
      backendTimeoutMs: 2500,
      includedOperations: ["listPets", "getPet"],
      oauth: {
        issuer: "https://login.example.com",
        requiredScopes: ["mcp:use"],
        toolScopes: { getPet: ["pets:read"] },
      },
    });

    const merged = json(await update("--oauth-audience", "atrium-petstore", "--no-audit", "-o", "json"));
    expect(merged.oauth).toEqual({ ...toOAuth.oauth, audience: "atrium-petstore" });
    expect(merged.audit).toBe(false);

    const both = await update("--apiKey");
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("add --no-oauth to switch");
    const removeAndSet = await update("--no-oauth", "--oauth-audience", "x");
    expect(removeAndSet.code).toBe(2);
    expect(removeAndSet.stderr).toContain("error: --no-oauth and --oauth-audience cannot be used together");

    const backToKey = ok(await update("--no-oauth", "--apiKey"));
    expect(row(backToKey, "CLIENT AUTH")).toBe("api key");
    expect(row(backToKey, "API KEY")).toMatch(/^atr_k_/);
    expect(backToKey.stdout).toContain("Save the API key now");
    expect(row(backToKey, "OAUTH ISSUER")).toBeUndefined();
    expect(json(await atrium(["config", "get", created.id, "-o", "json"])).oauth).toBeUndefined();

    const unknown = await atrium(["config", "update", randomUUID(), "--audit"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("does not exist in this organization");
    ok(await atrium(["config", "delete", created.id]));
  });

  it("renew-api-key: the gateway refuses the old key (401) and accepts the new one", async () => {
    const url = `${gateway.url}${stack.mcpPath}`;
    const listTools = async (key: string) => (await mcpToolsList(url, { "x-atrium-key": key })).status;
    const oldKey = stack.apiKey;
    expect(await listTools(oldKey)).toBe(200);

    const renewed = json(await atrium(["config", "renew-api-key", stack.planId, "--output", "json"]));
    expect(renewed.apiKey).toMatch(/^atr_k_/);
    expect(renewed.id).toBe(stack.planId);
    await waitFor(async () => (await listTools(oldKey)) === 401, "the old key refused");
    expect(await listTools(renewed.apiKey)).toBe(200);

    const table = ok(await atrium(["config", "renew-api-key", stack.planId]));
    const tableKey = row(table, "API KEY") as string;
    expect(tableKey).toMatch(/^atr_k_/);
    expect(table.stdout).toContain("shown only this once");
    await waitFor(async () => (await listTools(renewed.apiKey)) === 401, "the second key refused");
    expect(await listTools(tableKey)).toBe(200);
    stack.apiKey = tableKey;
  });

  it("explains missing flags, bad values and unknown ids", async () => {
    const noService = await atrium(["config", "create", "x", "--backendEndpoint", "http://b"]);
    expect(noService.code).toBe(2);
    expect(noService.stderr).toContain("required option '--serviceId <id>' not specified");
    expect(noService.stderr).toContain("--help");

    const badEndpoint = await atrium([
      "config",
      "create",
      "x",
      "--serviceId",
      stack.serviceId,
      "--backendEndpoint",
      "not-a-url",
    ]);
    expect(badEndpoint.code).toBe(1);
    expect(badEndpoint.stderr).toMatch(/^error: The request is invalid: body\.backendEndpoint: /m);

    const badOperation = await atrium([
      "config",
      "create",
      "x",
      "--serviceId",
      stack.serviceId,
      "--backendEndpoint",
      "http://b",
      "--include",
      "noSuchOp",
    ]);
    expect(badOperation.code).toBe(1);
    expect(badOperation.stderr).toContain("body.includedOperations: unknown operationId(s) noSuchOp");

    const badTimeout = await atrium([
      "config",
      "create",
      "x",
      "--serviceId",
      "s",
      "--backendEndpoint",
      "http://b",
      "--timeout-ms",
      "soon",
    ]);
    expect(badTimeout.code).toBe(2);
    expect(badTimeout.stderr).toContain("give a whole number of 1 or more");

    const badMode = await atrium([
      "config",
      "create",
      "x",
      "--serviceId",
      "s",
      "--backendEndpoint",
      "http://b",
      "--exposure-mode",
      "All",
    ]);
    expect(badMode.code).toBe(2);
    expect(badMode.stderr).toContain("Allowed choices are PerOperation, Discovery");

    const id = randomUUID();
    for (const args of [
      ["config", "get", id],
      ["config", "delete", id],
      ["config", "renew-api-key", id],
    ]) {
      const run = await atrium(args);
      expect(run.code, args.join(" ")).toBe(1);
      expect(run.stderr).toContain(`Configuration plan '${id}' does not exist in this organization`);
    }
  });
});

describe("gateway-group, gateway, expo", () => {
  it("creates and lists gateway groups with labels", async () => {
    const created = ok(
      await atrium(["gateway-group", "create", "cli-group", "--label", "env=test", "--description", "from the CLI"]),
    );
    expect(row(created, "ID")).toMatch(/^\d+$/);
    expect(row(created, "LABELS")).toBe("env=test");
    const other = json(
      await atrium(["gateway-group", "create", "cli-eu", "--label", "env=prod", "--label", "region=eu", "-o", "json"]),
    );
    expect(other).toMatchObject({ name: "cli-eu", labels: { env: "prod", region: "eu" } });
    expect(Number.isInteger(other.id)).toBe(true);

    const list = ok(await atrium(["gateway-group", "list"]));
    expect(list.stdout).toMatch(/^ID\s+NAME\s+LABELS\s+DESCRIPTION$/m);
    expect(list.stdout).toMatch(new RegExp(`^${other.id}\\s+cli-eu\\s+env=prod, region=eu`, "m"));
    const listed = json(await atrium(["gateway-group", "list", "--output", "json"]));
    expect(listed.map((g: { name: string }) => g.name)).toEqual(
      expect.arrayContaining(["test", "cli-group", "cli-eu"]),
    );

    expect(json(await atrium(["gateway-group", "get", String(other.id), "-o", "json"])).name).toBe("cli-eu");
    expect(ok(await atrium(["gateway-group", "delete", String(other.id)])).stdout).toBe(
      `Deleted gateway group ${other.id}.\n`,
    );
  });

  it("explains bad labels, bad names and unknown groups", async () => {
    const badLabel = await atrium(["gateway-group", "create", "g", "--label", "novalue"]);
    expect(badLabel.code).toBe(2);
    expect(badLabel.stderr).toContain("give it as key=value");
    const badName = await atrium(["gateway-group", "create", "Bad_Name"]);
    expect(badName.code).toBe(1);
    expect(badName.stderr).toContain("body.name");
    const unknown = await atrium(["gateway-group", "get", "987654"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Gateway group '987654' does not exist in this organization");
    const notANumber = await atrium(["gateway-group", "get", "abc"]);
    expect(notANumber.code).toBe(2);
  });

  it("lists gateways with their health", async () => {
    const table = ok(await atrium(["gateway", "list"]));
    expect(table.stdout).toMatch(/^ID\s+FQDNS\s+LABELS\s+VERSION\s+HEALTH\s+LAST SEEN$/m);
    expect(table.stdout).toMatch(/^gw-1\s+gw-1\.test\s+env=test\s+.*\bUP\b/m);
    const listed = json(await atrium(["gateway", "list", "-o", "json"]));
    expect(listed).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: "gw-1", fqdns: ["gw-1.test"], health: "UP" })]),
    );
  });

  it("creates expositions (named after the plan by default) and shows their group and ENDPOINTS", async () => {
    const groups = json(await atrium(["gateway-group", "list", "-o", "json"]));
    const group = groups.find((g: { name: string }) => g.name === "cli-group");
    const plan = json(
      await atrium([
        "config",
        "create",
        "expo-plan",
        "--serviceId",
        stack.serviceId,
        "--backendEndpoint",
        `${stack.backend.url}/api`,
        "-o",
        "json",
      ]),
    );

    const created = ok(
      await atrium(["expo", "create", "--configuration", plan.id, "--gateway-group", String(group.id)]),
    );
    const expositionId = row(created, "ID") as string;
    expect(row(created, "NAME")).toBe("expo-plan");
    expect(row(created, "GATEWAY GROUP")).toBe(`cli-group (${group.id})`);
    expect(row(created, "ENDPOINTS")).toBe("gw-1.test");
    expect(row(created, "MCP PATH")).toBe(`/mcp/${expositionId}`);

    const named = json(
      await atrium([
        "expo",
        "create",
        "--configuration",
        plan.id,
        "--gateway-group",
        String(group.id),
        "--name",
        "expo-named",
        "--output",
        "json",
      ]),
    );
    expect(named).toMatchObject({
      name: "expo-named",
      configurationPlanId: plan.id,
      gatewayGroup: { id: group.id, name: "cli-group" },
      endpoints: ["gw-1.test"],
    });

    const shown = ok(await atrium(["expo", "get", named.id]));
    expect(row(shown, "GATEWAY GROUP")).toBe(`cli-group (${group.id})`);
    expect(row(shown, "ENDPOINTS")).toBe("gw-1.test");
    expect(json(await atrium(["expo", "get", named.id, "-o", "json"])).endpoints).toEqual(["gw-1.test"]);
    expect(row(shown, "PROBLEMS")).toBe("(none)");
    // As a gateway that cannot serve it reports (its whole set, replacing the last one).
    const reported = await stack.controlPlane.api.withToken(stack.token).call("PUT", "/api/v1/gateways/gw-1/problems", {
      instanceId: gateway.sync.instanceId,
      problems: [{ expositionId: named.id, message: "the backend secret references ${env:X}, which is not set" }],
    });
    expect(reported.status).toBe(204);
    expect(row(ok(await atrium(["expo", "get", named.id])), "PROBLEMS")).toMatch(
      /^gw-1: the backend secret references \$\{env:X\}, which is not set \(since .+\)$/,
    );

    const list = ok(await atrium(["expo", "list"]));
    expect(list.stdout).toMatch(/^ID\s+NAME\s+CONFIGURATION PLAN\s+GATEWAY GROUP\s+ENDPOINTS$/m);
    expect(list.stdout).toMatch(
      new RegExp(`^${named.id}\\s+expo-named\\s+${plan.id}\\s+cli-group \\(${group.id}\\)\\s+gw-1\\.test$`, "m"),
    );
    expect(json(await atrium(["expo", "list", "-o", "json"])).map((e: { id: string }) => e.id)).toEqual(
      expect.arrayContaining([expositionId, named.id, stack.expositionId]),
    );

    await waitFor(() => gateway.registry.size >= 3, "the gateway serves the new expositions");

    expect(ok(await atrium(["expo", "delete", expositionId])).stdout).toBe(`Deleted exposition ${expositionId}.\n`);
    expect(json(await atrium(["expo", "delete", named.id, "-o", "json"]))).toEqual({ id: named.id, deleted: true });
    ok(await atrium(["gateway-group", "delete", String(group.id)]));
  });

  it("explains missing flags, unknown plans and groups, and unknown expositions", async () => {
    const noGroup = await atrium(["expo", "create", "--configuration", stack.planId]);
    expect(noGroup.code).toBe(2);
    expect(noGroup.stderr).toContain("required option '--gateway-group <group_id>' not specified");

    const planId = randomUUID();
    const unknownPlan = await atrium(["expo", "create", "--configuration", planId, "--gateway-group", "1"]);
    expect(unknownPlan.code).toBe(1);
    expect(unknownPlan.stderr).toContain(`Configuration plan '${planId}' does not exist in this organization`);

    const unknownGroup = await atrium([
      "expo",
      "create",
      "--configuration",
      stack.planId,
      "--gateway-group",
      "987654",
      "--name",
      "x",
    ]);
    expect(unknownGroup.code).toBe(1);
    expect(unknownGroup.stderr).toContain("body.gatewayGroupId: no gateway group 987654 in this organization");

    const id = randomUUID();
    const unknown = await atrium(["expo", "get", id]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`Exposition '${id}' does not exist in this organization`);
  });
});

describe("api-token", () => {
  const register = (token: string) =>
    new ApiClient(stack.controlPlane.url, token).call("POST", "/api/v1/gateways/register", {
      id: "gw-token-test",
      instanceId: randomUUID(),
      fqdns: ["gw-token-test.test"],
    });

  it("creates (value shown once), lists and deletes tokens; a deleted token cannot register a gateway", async () => {
    const created = json(await atrium(["api-token", "create", "ci-gateways", "--validity-days", "30", "-o", "json"]));
    expect(created.token).toMatch(/^atr_t_/);
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(created.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect((await register(created.token)).status).toBe(200);

    const table = ok(await atrium(["api-token", "create", "other", "--validity-days", "1"]));
    expect(row(table, "TOKEN")).toMatch(/^atr_t_/);
    expect(table.stdout).toContain("Save the token now: it is shown only this once.");

    const list = ok(await atrium(["api-token", "list"]));
    expect(list.stdout).toMatch(/^ID\s+NAME\s+ROLE\s+BOUNDS\s+EXPIRES\s+CREATED AT$/m);
    expect(list.stdout).toMatch(new RegExp(`^${created.id}\\s+ci-gateways\\s+gateway\\s+-\\s`, "m"));
    expect(list.stdout).not.toContain("atr_t_");
    const listed = json(await atrium(["api-token", "list", "-o", "json"]));
    expect(listed.find((t: { id: string }) => t.id === created.id)).toMatchObject({ name: "ci-gateways" });
    expect(JSON.stringify(listed)).not.toContain("atr_t_");

    expect(ok(await atrium(["api-token", "delete", created.id])).stdout).toBe(`Revoked API token ${created.id}.\n`);
    const refused = await register(created.token);
    expect(refused.status).toBe(401);

    const other = row(table, "ID") as string;
    expect(json(await atrium(["api-token", "delete", other, "-o", "json"]))).toEqual({ id: other, deleted: true });
  });

  it("creates operator tokens and bounded gateway tokens, shown by get and list", async () => {
    const operator = json(
      await atrium(["api-token", "create", "k8s-operator", "--role", "operator", "--validity-days", "1", "-o", "json"]),
    );
    expect(operator.role).toBe("operator");
    expect((await register(operator.token)).status).toBe(403);
    const bounded = json(
      await atrium([
        "api-token",
        "create",
        "eu-gateways",
        "--validity-days",
        "1",
        "--allowed-fqdn",
        "*.eu.test",
        "--required-label",
        "region=eu",
        "-o",
        "json",
      ]),
    );
    expect(bounded).toMatchObject({ role: "gateway", allowedFqdns: ["*.eu.test"], requiredLabels: { region: "eu" } });
    const shown = ok(await atrium(["api-token", "get", bounded.id]));
    expect(row(shown, "BOUNDS")).toBe("fqdns=*.eu.test region=eu");
    expect(shown.stdout).not.toContain("atr_t_");
    expect((await register(bounded.token)).status).toBe(403);
    const badRole = await atrium(["api-token", "create", "t", "--validity-days", "1", "--role", "root"]);
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain("Allowed choices are gateway, operator, admin");
  });

  it("explains missing and bad --validity-days and unknown tokens", async () => {
    const missing = await atrium(["api-token", "create", "t"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--validity-days <n>' not specified");
    const zero = await atrium(["api-token", "create", "t", "--validity-days", "0"]);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain("give a whole number of 1 or more");
    const tooLong = await atrium(["api-token", "create", "t", "--validity-days", "99999"]);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toContain("body.validityDays");
    const id = randomUUID();
    const unknown = await atrium(["api-token", "delete", id]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`API token '${id}' does not exist in this organization`);
  });
});

describe("secret and admin", () => {
  it("creates secrets from stdin, lists and deletes them; admin reencrypt reports", async () => {
    const created = ok(await atrium(["secret", "create", "backend-token", "--value-stdin"], "s3cret-value\n"));
    const id = row(created, "ID") as string;
    expect(row(created, "NAME")).toBe("backend-token");
    expect(created.stdout).not.toContain("s3cret-value");
    const piped = json(await atrium(["secret", "create", "piped-token", "-o", "json"], "other"));
    expect(piped).toMatchObject({ name: "piped-token" });

    const list = ok(await atrium(["secret", "list"]));
    expect(list.stdout).toMatch(/^ID\s+NAME\s+CREATED AT\s+UPDATED AT$/m);
    expect(list.stdout).toMatch(new RegExp(`^${id}\\s+backend-token\\s`, "m"));
    expect(json(await atrium(["secret", "list", "-o", "json"])).map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(["backend-token", "piped-token"]),
    );

    // A plan can send a stored secret to its backend.
    const plan = json(
      await atrium([
        "config",
        "create",
        "secret-plan",
        "--serviceId",
        stack.serviceId,
        "--backendEndpoint",
        stack.backend.url,
        "--backend-secret",
        id,
        "--backend-secret-prefix",
        "Bearer ",
        "-o",
        "json",
      ]),
    );
    expect(plan.backendSecret).toMatchObject({ secretId: id, prefix: "Bearer ", in: "header", name: "Authorization" });
    ok(await atrium(["config", "delete", plan.id]));

    const report = ok(await atrium(["admin", "reencrypt"]));
    expect(row(report, "ACTIVE KEY ID")).toBe("test");
    expect(Number(row(report, "SCANNED"))).toBeGreaterThanOrEqual(2);
    expect(json(await atrium(["admin", "reencrypt", "-o", "json"]))).toMatchObject({
      activeKeyId: "test",
      reencrypted: 0,
    });

    expect(ok(await atrium(["secret", "delete", id])).stdout).toBe(`Deleted secret ${id}.\n`);
    expect(json(await atrium(["secret", "delete", piped.id, "-o", "json"]))).toEqual({ id: piped.id, deleted: true });
  });

  it("refuses an empty value and unknown secrets, and says the value is never an argument", async () => {
    const empty = await atrium(["secret", "create", "empty", "--value-stdin"], "");
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("No secret value was given");
    const extra = await atrium(["secret", "create", "x", "the-value"], "v");
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain("too many arguments");
    const help = ok(await atrium(["secret", "create", "--help"]));
    expect(help.stdout.replace(/\s+/g, " ")).toContain("never taken as an argument (arguments end up in shell history");
    const id = randomUUID();
    const unknown = await atrium(["secret", "delete", id]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`Secret '${id}' does not exist in this organization`);
  });
});

describe("logins that no longer work, and unreachable control planes", () => {
  it("an expired login says to log in again (exit code 3)", async () => {
    const shortLived = await startTestControlPlane("pglite", { config: { loginTtlSeconds: 1 } });
    try {
      const own = newEnv();
      ok(await login(own, shortLived));
      ok(await runAtrium(["service", "list"], { env: own }));
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const run = await runAtrium(["service", "list"], { env: own });
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(
        /^error: Your login to http:\/\/127\.0\.0\.1:\d+ expired at .*: log in again with `atrium login/m,
      );
    } finally {
      await shortLived.close();
    }
  });

  it("a login revoked on the server says to log in again (exit code 3)", async () => {
    const own = newEnv();
    ok(await login(own, stack.controlPlane));
    const token = JSON.parse(readFileSync(credentialsPath(own), "utf8")).token as string;
    expect((await new ApiClient(stack.controlPlane.url, token).call("POST", "/api/v1/logout")).status).toBe(204);
    const run = await runAtrium(["config", "list"], { env: own });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("Your login has expired or was revoked: run `atrium login`");
  });

  it("an unreachable control plane is named, with what to do", async () => {
    const url = `http://127.0.0.1:${closedPort}`;
    const run = await atrium(["service", "list", "--control-plane", url]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Cannot reach the control plane at ${url} (ECONNREFUSED): is it running?`);
    expect(run.stderr).toContain("`atrium run` starts a local one");
    const before = await atrium(["--control-plane", url, "gateway", "list"]);
    expect(before.code).toBe(1);
    expect(before.stderr).toContain(`Cannot reach the control plane at ${url}`);
    const loginRun = await login(newEnv(), url);
    expect(loginRun.code).toBe(1);
    expect(loginRun.stderr).toContain(`Cannot reach the control plane at ${url}`);
  });

  it("a damaged credentials file says to log in again", async () => {
    const own = newEnv();
    ok(await login(own, stack.controlPlane));
    writeFileSync(credentialsPath(own), "{not json");
    const run = await runAtrium(["info"], { env: own });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("cannot be read (not JSON): run `atrium login` again");
  });
});

describe("help", () => {
  const stackCommands = new Set(["run", "status", "stop"]); // the local stack's, documented with them
  const leaves = (command: Command): Command[] =>
    command.commands.length === 0 ? [command] : command.commands.flatMap(leaves);
  const path = (command: Command): string[] => (command.parent ? [...path(command.parent), command.name()] : []);

  it("every command has --help with an example", async () => {
    const program = buildProgram(
      createContext({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env }),
    );
    const commands = leaves(program).filter((command) => !stackCommands.has(path(command)[0] as string));
    expect(commands.length).toBeGreaterThanOrEqual(25);
    for (const command of commands) {
      const run = ok(await atrium([...path(command), "--help"]));
      expect(run.stdout, path(command).join(" ")).toMatch(/\nExamples?:\n {2}\$ .*atrium /);
      expect(run.stdout).toContain("--output <format>");
    }
  });

  it("prints the version, and usage errors exit with 2", async () => {
    expect(ok(await atrium(["--version"])).stdout).toBe("0.1.0\n");
    const nothing = await atrium([]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("Usage: atrium");
    const group = await atrium(["config"]);
    expect(group.code).toBe(2);
    const unknown = await atrium(["confg", "list"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'confg'");
    const badOutput = await atrium(["service", "list", "--output", "xml"]);
    expect(badOutput.code).toBe(2);
    expect(badOutput.stderr).toContain("Allowed choices are table, json, yaml");
    expect(ok(await atrium(["--output", "json", "service", "list"])).stdout.trimStart()).toMatch(/^\[/);
  });
});
