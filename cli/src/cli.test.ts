/**
 * `atrium` journeys, in-process, against a real control plane and a real gateway (no mocks): plans
 * made with the CLI as the gateway enforces them, logins that stop working, unreachable control
 * planes, and help. Each command's own behaviour is tested beside it (commands/<command>.test.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { ApiClient, startTestControlPlane } from "@atrium/control-plane/testing";
import type { Gateway } from "@atrium/gateway";
import { startAuthorizationServer } from "@atrium/gateway/auth/testing";
import { modernRequest, type Stack, waitFor } from "@atrium/gateway/testing";
import type { Command } from "commander";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { credentialsPath } from "./config.ts";
import { createContext } from "./context.ts";
import { buildProgram } from "./program.ts";
import { type CliStack, fails, json, login, ok, row, runAtrium, withCliStack } from "./testing.ts";

let stack: Stack;
let gateway: Gateway;
let env: NodeJS.ProcessEnv;
let closedPort: number;
let newEnv: CliStack["newEnv"];
const atrium = withCliStack((cli) => {
  ({ stack, gateway, env, closedPort, newEnv } = cli);
});

/** `tools/list` (2026-07-28) on an MCP endpoint with these credentials: the status, challenge and tools. */
async function mcpToolsList(url: string, credentials: Record<string, string>) {
  const response = await request(url, modernRequest("tools/list", {}, { client: "cli-test", headers: credentials }));
  const text = await response.body.text();
  const tools = response.statusCode === 200 ? (JSON.parse(text).result?.tools as { name: string }[]) : [];
  return {
    status: response.statusCode,
    challenge: response.headers["www-authenticate"],
    tools: tools.map((tool) => tool.name),
  };
}

describe("config journeys through the gateway", () => {
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
});

describe("logins that no longer work, and unreachable control planes", () => {
  it("an expired login says to log in again (exit code 3)", async () => {
    const shortLived = await startTestControlPlane("pglite", { config: { loginTtlSeconds: 1 } });
    try {
      const own = newEnv();
      ok(await login(own, shortLived));
      ok(await runAtrium(["service", "list"], { env: own }));
      await new Promise((resolve) => setTimeout(resolve, 1100));
      fails(
        await runAtrium(["service", "list"], { env: own }),
        3,
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
    fails(
      await runAtrium(["config", "list"], { env: own }),
      3,
      "Your login has expired or was revoked: run `atrium login`",
    );
  });

  it("an unreachable control plane is named, with what to do", async () => {
    const url = `http://127.0.0.1:${closedPort}`;
    const run = await atrium(["service", "list", "--control-plane", url]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Cannot reach the control plane at ${url} (ECONNREFUSED): is it running?`);
    expect(run.stderr).toContain("`atrium run` starts a local one");
    fails(await atrium(["--control-plane", url, "gateway", "list"]), 1, `Cannot reach the control plane at ${url}`);
    fails(await login(newEnv(), url), 1, `Cannot reach the control plane at ${url}`);
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
    fails(await atrium([]), 2, "Usage: atrium");
    const group = await atrium(["config"]);
    expect(group.code).toBe(2);
    fails(await atrium(["confg", "list"]), 2, "unknown command 'confg'");
    fails(await atrium(["service", "list", "--output", "xml"]), 2, "Allowed choices are table, json, yaml");
    expect(ok(await atrium(["--output", "json", "service", "list"])).stdout.trimStart()).toMatch(/^\[/);
  });
});
