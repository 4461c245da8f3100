/**
 * A plan's toolOverrides and result budget end to end, through a gateway, with the official
 * clients (v1 in a 2025-11-25 session, v2 pinned to 2026-07-28): clients see the plan's name and
 * description, not the fixed argument; the backend always receives the plan's value; an answer
 * over budget arrives trimmed, within budget, still matching the outputSchema the client checks.
 */
import { createServer } from "node:http";
import { useDuringTests } from "@atrium/control-plane/testing";
import { describe, expect, it } from "vitest";
import type { Gateway } from "./gateway.ts";
import { listenLocally, modernRequest, officialClients, type Stack, useStack, waitFor } from "./testing.ts";

const BUDGET = 2048;
/** Far over the gateway's read limit (64 KiB in tests) and the plan's budget. */
const HUGE = JSON.stringify({ blob: "x".repeat(1024 * 1024), rows: Array.from({ length: 50_000 }, (_, i) => i) });
const issues = Array.from({ length: 400 }, (_, i) => ({ id: i, title: `Issue ${i}`, labels: ["bug", "triage"] }));

async function startIssueTracker() {
  const seen: string[] = [];
  const tenants: (string | string[] | undefined)[] = [];
  const server = createServer((req, res) => {
    req.resume();
    seen.push(req.url ?? "");
    tenants.push(req.headers["x-tenant"]);
    if (req.url === "/dump") return res.writeHead(200, { "content-type": "application/json" }).end(HUGE);
    const project = /^\/projects\/([^/?]+)\/issues/.exec(req.url ?? "")?.[1];
    if (!project) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ project, total: 400, issues }));
  });
  return { ...(await listenLocally(server)), seen, tenants };
}

const OPENAPI = JSON.stringify({
  openapi: "3.1.0",
  info: { title: "tracker", version: "1" },
  paths: {
    "/dump": {
      get: { operationId: "dump", responses: { "200": { description: "ok", content: { "application/json": {} } } } },
    },
    "/projects/{project}/issues": {
      get: {
        operationId: "searchIssues",
        summary: "Search the issues of a project",
        parameters: [
          { name: "project", in: "path", required: true, schema: { type: "string" } },
          { name: "q", in: "query", schema: { type: "string" } },
          { name: "X-Tenant", in: "header", schema: { type: "string" } },
        ],
        responses: {
          "200": {
            description: "ok",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["issues"],
                  properties: {
                    project: { type: "string" },
                    total: { type: "integer" },
                    issues: { type: "array", minItems: 1, items: { type: "object" } },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
});

let url: string;
let apiKey: string;
let gateway: Gateway;
const backend = useDuringTests(startIssueTracker, (started) => started.close());
useStack(async (stack: Stack) => {
  const plan = {
    backendEndpoint: backend().url,
    apiKey: true,
    toolOverrides: {
      searchIssues: {
        name: "search_acme_issues",
        description: "Search the issues of the ACME project.",
        annotations: { openWorldHint: false },
        fixedArguments: { project: "acme", "X-Tenant": "acme" },
      },
    },
    // The client's X-Tenant is forwarded, but never over the fixed argument's.
    headerPolicy: { forwardRequestHeaders: ["X-Tenant"] },
    maxResultBytes: BUDGET,
  };
  const exposed = await stack.expose("curated", { openapi: OPENAPI, plan });
  gateway = await stack.startGateway();
  await waitFor(() => gateway.registry.byId(exposed.expositionId) !== undefined, "the curated exposition served");
  url = `${gateway.url}/mcp/${exposed.expositionId}`;
  apiKey = exposed.apiKey ?? "";
});

/**
 * The bytes the budget counts: the result as the gateway made it, without the 2026-07-28 frame
 * (`resultType`, the server's info in `_meta`) added after it.
 */
function budgetedBytes(result: Record<string, unknown>): number {
  const { resultType: _frame, ...made } = result;
  const { "io.modelcontextprotocol/serverInfo": _server, ...meta } = (made._meta ?? {}) as Record<string, unknown>;
  return Buffer.byteLength(JSON.stringify({ ...made, ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) }));
}

const clients = officialClients(() => ({ url, apiKey }));

describe.each(clients)("a curated plan with the official client ($era)", ({ connect }) => {
  it("lists the plan's name and description, without the fixed argument", async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["dump", "search_acme_issues"]);
      expect(tools[1]).toMatchObject({
        description: "Search the issues of the ACME project.",
        annotations: { openWorldHint: false, readOnlyHint: true },
      });
      expect(Object.keys(tools[1]?.inputSchema.properties ?? {})).toEqual(["q"]);
      expect(tools[1]?.inputSchema.required).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it("sends the fixed value, refuses a call that sets it, and trims the answer to the budget", async () => {
    const client = await connect();
    try {
      const before = backend().seen.length;
      const result = await client.callTool({ name: "search_acme_issues", arguments: { q: "crash" } });
      expect(backend().seen.slice(before)).toEqual(["/projects/acme/issues?q=crash"]);
      expect(result.isError).toBeFalsy();
      expect(budgetedBytes(result)).toBeLessThanOrEqual(BUDGET);
      const kept = result.structuredContent as { project: string; total: number; issues: unknown[] };
      expect(kept).toMatchObject({ project: "acme", total: 400 });
      expect(kept.issues.length).toBeGreaterThanOrEqual(1);
      expect(kept.issues).toEqual(issues.slice(0, kept.issues.length));
      const omitted = 400 - kept.issues.length;
      expect(result._meta).toMatchObject({ "dev.atrium/trimmed": { maxResultBytes: BUDGET, omittedItems: omitted } });
      expect(result.content).toEqual([
        { type: "text", text: JSON.stringify(kept) },
        { type: "text", text: expect.stringContaining(`${omitted} items left out`) },
      ]);

      // The gateway refuses it (a client checking arguments against the listed schema may refuse it first).
      const overriding = await client
        .callTool({ name: "search_acme_issues", arguments: { q: "crash", project: "other" } })
        .catch((error: Error) => ({ isError: true, content: [{ type: "text", text: error.message }] }));
      expect(overriding.isError).toBe(true);
      expect(JSON.stringify(overriding.content)).toContain("project");
      expect(backend().seen.some((seen) => seen.startsWith("/projects/other"))).toBe(false);
    } finally {
      await client.close();
    }
  });

  it("answers a huge answer under a small budget with a defined result within it", async () => {
    const client = await connect();
    try {
      const result = await client.callTool({ name: "dump", arguments: {} });
      expect(budgetedBytes(result)).toBeLessThanOrEqual(BUDGET);
      expect(result.structuredContent).toBeUndefined();
      expect(JSON.stringify(result.content)).toContain("cut to fit the result budget of 2048 bytes");
    } finally {
      await client.close();
    }
  });
});

describe("a fixed header argument", () => {
  it("is sent with the plan's value even when the header policy forwards the client's header of that name", async () => {
    const before = backend().tenants.length;
    const answer = await fetch(
      url,
      modernRequest(
        "tools/call",
        { name: "search_acme_issues", arguments: { q: "x" } },
        { headers: { "x-atrium-key": apiKey, "X-Tenant": "other" } },
      ),
    );
    expect(answer.status).toBe(200);
    expect(backend().tenants.slice(before)).toEqual(["acme"]);
  });
});
