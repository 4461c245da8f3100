/**
 * `atrium config` against a real control plane: create, list, get, update and delete plans with an
 * API key or OAuth, and what each refusal says (the journeys through the gateway are in cli.test.ts).
 */
import { randomUUID } from "node:crypto";
import type { Stack } from "@atrium/gateway/testing";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { type CliStack, fails, json, ok, row, runAtrium, withCliStack } from "../testing.ts";

let stack: Stack;
let newEnv: CliStack["newEnv"];
const atrium = withCliStack((cli) => ({ stack, newEnv } = cli));
/** `atrium config create <name>` on the stack's Service with `backendEndpoint`, then `flags`. */
const createPlan = (name: string, backendEndpoint: string, flags: string[]) =>
  atrium(["config", "create", name, "--serviceId", stack.serviceId, "--backendEndpoint", backendEndpoint, ...flags]);

describe("config", () => {
  it("creates plans (JSON holds id and apiKey; the table shows the key once), lists, shows, deletes", async () => {
    const created = json(
      await createPlan("cli-plan", `${stack.backend.url}/api`, [
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

    const table = ok(await createPlan("cli-plan-table", stack.backend.url, ["--apiKey", "--exclude", "slow,image"]));
    expect(row(table, "API KEY")).toMatch(/^atr_k_/);
    expect(row(table, "EXCLUDED OPERATIONS")).toBe("slow, image");
    expect(table.stdout).toContain("Save the API key now: it is shown only this once.");

    const noKey = json(await createPlan("cli-plan-open", stack.backend.url, ["-o", "json"]));
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
      await createPlan("cli-plan-oauth", stack.backend.url, [
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
      await createPlan("cli-plan-oauth-min", stack.backend.url, ["--oauth-issuer", "https://login.example.com"]),
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
    fails(await atrium([...withIssuer, "--oauth-tool-scope", "getPet"]), 2, "give it as tool=scope1,scope2");

    // What only the server knows is its to refuse, with the field named.
    fails(
      await atrium([...base, "--oauth-issuer", "login.example.com"]),
      1,
      /^error: The request is invalid: body\.oauth\.issuer: /m,
    );
    fails(
      await atrium([...withIssuer, "--oauth-tool-scope", "getPet=x", "--exposure-mode", "Discovery"]),
      1,
      "oauth.toolScopes needs toolExposureMode PerOperation",
    );
    fails(await atrium([...withIssuer, "--oauth-scope", 'pets"read']), 1, "body.oauth.requiredScopes");

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

  it("update changes only what its flags name, switches between API key and OAuth, and merges OAuth fields", async () => {
    const created = json(
      await createPlan("cli-plan-update", stack.backend.url, [
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
    const asking = json(await update("--elicit-missing-arguments", "-o", "json"));
    expect(asking).toMatchObject({ audit: true, elicitMissingArguments: true });
    expect(json(await update("--no-elicit-missing-arguments", "-o", "json")).elicitMissingArguments).toBe(false);

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

    fails(await update("--apiKey"), 2, "add --no-oauth to switch");
    fails(
      await update("--no-oauth", "--oauth-audience", "x"),
      2,
      "error: --no-oauth and --oauth-audience cannot be used together",
    );

    const backToKey = ok(await update("--no-oauth", "--apiKey"));
    expect(row(backToKey, "CLIENT AUTH")).toBe("api key");
    expect(row(backToKey, "API KEY")).toMatch(/^atr_k_/);
    expect(backToKey.stdout).toContain("Save the API key now");
    expect(row(backToKey, "OAUTH ISSUER")).toBeUndefined();
    expect(json(await atrium(["config", "get", created.id, "-o", "json"])).oauth).toBeUndefined();

    fails(await atrium(["config", "update", randomUUID(), "--audit"]), 1, "does not exist in this organization");
    ok(await atrium(["config", "delete", created.id]));
  });

  it("sets the circuit breaker on create and update, merging its fields; off and a threshold are refused together", async () => {
    const created = json(await createPlan("cli-plan-breaker", stack.backend.url, ["-o", "json"]));
    expect(created.circuitBreaker).toEqual({ enabled: true, consecutiveFailures: 5, coolDownSeconds: 30 });
    const update = (...args: string[]) => atrium(["config", "update", created.id, ...args]);

    const tuned = ok(await update("--circuit-breaker-failures", "3"));
    expect(row(tuned, "CIRCUIT BREAKER")).toBe("on (opens after 3 failures in a row, for 30 s)");
    expect(json(await update("--circuit-breaker-cool-down", "5", "-o", "json")).circuitBreaker).toEqual({
      enabled: true,
      consecutiveFailures: 3,
      coolDownSeconds: 5,
    });
    const off = ok(await update("--no-circuit-breaker", "--audit"));
    expect(row(off, "CIRCUIT BREAKER")).toBe("off");
    expect(json(await update("--timeout-ms", "900", "-o", "json")).circuitBreaker).toEqual({
      enabled: false,
      consecutiveFailures: 3,
      coolDownSeconds: 5,
    });
    expect(json(await update("--circuit-breaker", "-o", "json")).circuitBreaker).toMatchObject({ enabled: true });

    fails(
      await update("--no-circuit-breaker", "--circuit-breaker-failures", "2"),
      2,
      "error: --no-circuit-breaker and --circuit-breaker-failures cannot be used together",
    );
    fails(await update("--circuit-breaker-cool-down", "0"), 2, "give a whole number of 1 or more");
    fails(await update("--circuit-breaker-cool-down", "3601"), 1, /body\.circuitBreaker\.coolDownSeconds: /);
    const onCreate = json(
      await createPlan("cli-plan-no-breaker", stack.backend.url, ["--no-circuit-breaker", "-o", "json"]),
    );
    expect(onCreate.circuitBreaker.enabled).toBe(false);
    for (const id of [created.id, onCreate.id]) ok(await atrium(["config", "delete", id]));
  });

  it("sets limits on create and update, merging their fields; --no-limits removes them; what is unenforceable is refused", async () => {
    const created = ok(
      await createPlan("cli-plan-limits", stack.backend.url, [
        "--rate-limit",
        "0.5",
        "--max-concurrent-calls",
        "4",
        "--tool-limit",
        "createPet=rate=2,burst=3",
        "--tool-limit",
        "slow=concurrent=1",
      ]),
    );
    expect(row(created, "LIMITS")).toBe(
      "0.5/s, 4 at once; createPet: 2/s (burst 3); slow: 1 at once (per plan, on each gateway replica)",
    );
    const id = String(row(created, "ID"));
    const update = (...args: string[]) => atrium(["config", "update", id, ...args]);
    expect(json(await update("--rate-burst", "5", "-o", "json")).limits).toEqual({
      requestsPerSecond: 0.5,
      burst: 5,
      concurrentCalls: 4,
      per: "plan",
      tools: { createPet: { requestsPerSecond: 2, burst: 3 }, slow: { concurrentCalls: 1 } },
    });
    expect(json(await update("--tool-limit", "listPets=rate=10", "-o", "json")).limits.tools).toEqual({
      listPets: { requestsPerSecond: 10 },
    });
    // Per caller needs OAuth: the control plane says so, with the field.
    fails(
      await update("--limit-per", "caller"),
      1,
      /body\.limits\.per: limits\.per caller needs an OAuth-protected plan/,
    );
    fails(await update("--no-limits", "--rate-limit", "1"), 2, "--no-limits and --rate-limit cannot be used together");
    fails(await update("--rate-limit", "0"), 2, "give a number above 0");
    fails(await update("--tool-limit", "createPet=speed=2"), 2, "give it as tool=rate=<per second>");
    const removed = ok(await update("--no-limits"));
    expect(row(removed, "LIMITS")).toBe("none");
    // Burst alone would be ignored: refused.
    fails(
      await createPlan("cli-plan-burst", stack.backend.url, ["--rate-burst", "3"]),
      1,
      "body.limits.burst: burst needs requestsPerSecond: it is the size of the rate's bucket",
    );
    ok(await atrium(["config", "delete", id]));
  });

  it("explains missing flags, bad values and unknown ids", async () => {
    const create = (...args: string[]) => ["config", "create", "x", "--backendEndpoint", "http://b", ...args];
    const refusals: [string[], number, string | RegExp][] = [
      [create(), 2, "required option '--serviceId <id>' not specified"],
      [create(), 2, "--help"],
      [
        ["config", "create", "x", "--serviceId", stack.serviceId, "--backendEndpoint", "not-a-url"],
        1,
        /^error: The request is invalid: body\.backendEndpoint: /m,
      ],
      [
        create("--serviceId", stack.serviceId, "--include", "noSuchOp"),
        1,
        "body.includedOperations: unknown operationId(s) noSuchOp",
      ],
      [create("--serviceId", "s", "--timeout-ms", "soon"), 2, "give a whole number of 1 or more"],
      [create("--serviceId", "s", "--exposure-mode", "All"), 2, "Allowed choices are PerOperation, Discovery"],
    ];
    for (const [args, code, message] of refusals) fails(await atrium(args), code, message);

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
