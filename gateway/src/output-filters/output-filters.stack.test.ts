/**
 * Output filters end to end: a plan's toolOutputFilters written through the control plane's REST
 * API (refused with a located 422 when bad, accepted with a warning when a patch hides the
 * outputSchema), served by a gateway, and called by the official clients (v1 in a 2025-11-25
 * session, v2 pinned to 2026-07-28), which check each structuredContent against the outputSchema
 * they listed. The backend answers a real GitHub API answer (repository.fixture.ts).
 */
import { createServer } from "node:http";
import { useDuringTests } from "@atrium/control-plane/testing";
import { decode } from "@toon-format/toon";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import type { Gateway } from "../gateway.ts";
import { managementUrl } from "../server.ts";
import {
  connectModernClient,
  listenLocally,
  officialClients,
  type Stack,
  useStack,
  waitFor,
  withClient,
} from "../testing.ts";
import { ISSUES, REPOSITORY, repositorySchema } from "./repository.fixture.ts";

async function startGithubBackend() {
  const server = createServer((req, res) => {
    req.resume();
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
    if (req.url?.endsWith("/issues")) return json(200, ISSUES);
    if (req.url?.endsWith("/missing")) return json(404, { message: "Not Found", documentation_url: "https://docs" });
    if (req.url?.endsWith("/readme"))
      return res.writeHead(200, { "content-type": "text/plain" }).end("# README\nsecret");
    return json(200, REPOSITORY);
  });
  return listenLocally(server);
}

const repositoryAnswer = {
  "200": { description: "ok", content: { "application/json": { schema: repositorySchema } } },
};
const get = (operationId: string, responses: Record<string, unknown> = repositoryAnswer) => ({
  get: { operationId, responses },
});
const OPENAPI = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "github", version: "1" },
  paths: {
    "/json/repo": get("getRepo"),
    "/toon/repo": get("getRepoToon"),
    "/patched/repo": get("getRepoPatched"),
    "/tested/repo": get("getRepoTested"),
    "/plain/repo": get("getRepoPlain"),
    "/list/issues": get("listIssues", { "200": { description: "ok", content: { "application/json": {} } } }),
    "/gone/missing": get("getMissing"),
    "/text/readme": get("getReadme", { "200": { description: "ok", content: { "text/plain": {} } } }),
  },
});

const kept = ["/full_name", "/description", "/stargazers_count", "/owner/login", "/private"];
const FILTERS = {
  getRepo: { retain: kept },
  getRepoToon: { retain: kept, format: "toon" },
  // A remove of something absent is skipped; the others apply.
  getRepoPatched: {
    retain: [...kept, "/owner/id"],
    patches: [
      { op: "remove", path: "/no/such/member" },
      { op: "move", from: "/stargazers_count", path: "/stars" },
      { op: "add", path: "/source", value: "github" },
    ],
  },
  // The test fails (it expects the opposite of the answer), and the document stays as retain left it.
  getRepoTested: {
    retain: kept,
    patches: [
      { op: "test", path: "/private", value: !REPOSITORY.private },
      { op: "remove", path: "/owner" },
    ],
  },
  listIssues: { retain: ["/result/*/number", "/result/*/title", "/result/*/user/login"], format: "toon" },
  getMissing: { retain: ["/full_name"] },
  getReadme: { retain: ["/full_name"] },
};

let url: string;
let apiKey: string;
let stack: Stack;
let gateway: Gateway;
let serviceId: string;

const backend = useDuringTests(startGithubBackend, (started) => started.close());
/** POSTs `body` to the control plane's `path` as its admin; the answer's body, or throws with it. */
async function created(path: string, body: unknown) {
  const response = await stack.controlPlane.admin.call("POST", `/api/v1${path}`, body);
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

useStack(async (started: Stack) => {
  stack = started;
  serviceId = (await created("/services", { name: "github", version: "1", openapi: { inline: OPENAPI } })).id;
  const plan = await created("/configuration-plans", {
    name: "github",
    serviceId,
    backendEndpoint: backend().url,
    apiKey: true,
    toolOutputFilters: FILTERS,
  });
  const exposition = await created("/expositions", {
    name: "github",
    configurationPlanId: plan.id,
    gatewayGroupId: stack.groupId,
  });
  gateway = await stack.startGateway();
  await waitFor(() => gateway.registry.byId(exposition.id) !== undefined, "the github exposition served");
  url = `${gateway.url}/mcp/${exposition.id}`;
  apiKey = plan.apiKey;
});

const clients = officialClients(() => ({ url, apiKey }));

const retained = {
  full_name: REPOSITORY.full_name,
  description: REPOSITORY.description,
  stargazers_count: REPOSITORY.stargazers_count,
  owner: { login: REPOSITORY.owner.login },
  private: REPOSITORY.private,
};

describe.each(clients)("output filters with the official client ($era)", ({ connect }) => {
  it("returns what retain keeps, as JSON, valid against the derived outputSchema", async () => {
    await withClient(connect, async (client) => {
      const { tools } = await client.listTools();
      const listed = tools.find((tool) => tool.name === "getRepo");
      expect(listed?.outputSchema).toMatchObject({
        type: "object",
        properties: { owner: { properties: { login: { type: "string" } }, additionalProperties: false } },
        additionalProperties: false,
      });
      expect(Object.keys(listed?.outputSchema?.properties ?? {}).sort()).toEqual([
        "description",
        "full_name",
        "owner",
        "private",
        "stargazers_count",
      ]);
      const result = await client.callTool({ name: "getRepo", arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(retained);
      expect(result.content).toEqual([{ type: "text", text: JSON.stringify(retained) }]);
      expect(result._meta).toMatchObject({ "dev.atrium/backendStatus": 200 });
    });
  });

  it("carries TOON in the text and JSON in structuredContent", async () => {
    await withClient(connect, async (client) => {
      const result = await client.callTool({ name: "getRepoToon", arguments: {} });
      expect(result.structuredContent).toEqual(retained);
      const [block] = result.content as { type: string; text: string }[];
      expect(block?.text).toContain(`full_name: ${REPOSITORY.full_name}`);
      expect(block?.text.startsWith("{")).toBe(false);
      expect(decode(block?.text ?? "")).toEqual(retained);
      const issues = await client.callTool({ name: "listIssues", arguments: {} });
      const rows = ISSUES.map((issue) => ({
        number: issue.number,
        title: issue.title,
        user: { login: issue.user.login },
      }));
      expect(issues.structuredContent).toEqual({ result: rows });
      expect(decode((issues.content as { text: string }[])[0]?.text ?? "")).toEqual({ result: rows });
    });
  });

  it("applies patches in order, skips one whose path is absent, and keeps the document when a test fails", async () => {
    await withClient(connect, async (client) => {
      const patched = await client.callTool({ name: "getRepoPatched", arguments: {} });
      const { stargazers_count: stars, ...rest } = retained;
      expect(patched.structuredContent).toEqual({
        ...rest,
        owner: { login: REPOSITORY.owner.login, id: (REPOSITORY.owner as unknown as { id: number }).id },
        stars,
        source: "github",
      });
      const tested = await client.callTool({ name: "getRepoTested", arguments: {} });
      expect(tested.isError).toBeFalsy();
      expect(tested.structuredContent).toEqual(retained);
      const { tools } = await client.listTools();
      // A test may fail: the schema accepts the document before and after the patches.
      expect(tools.find((tool) => tool.name === "getRepoTested")?.outputSchema?.anyOf).toHaveLength(2);
    });
  });

  it("passes error results unchanged, refuses to pass on what it cannot filter, and leaves other tools whole", async () => {
    await withClient(connect, async (client) => {
      const missing = await client.callTool({ name: "getMissing", arguments: {} });
      expect(missing.isError).toBe(true);
      expect(JSON.stringify(missing.content)).toContain("HTTP 404 Not Found");
      const readme = await client.callTool({ name: "getReadme", arguments: {} });
      expect(readme.isError).toBe(true);
      expect(JSON.stringify(readme.content)).not.toContain("secret");
      expect(JSON.stringify(readme.content)).toContain("output filter cannot apply");
      const plain = await client.callTool({ name: "getRepoPlain", arguments: {} });
      expect(plain.structuredContent).toEqual(REPOSITORY);
    });
  });
});

describe("output filter metrics", () => {
  it("count the bytes of each filtered tool's answers and of what its filter made of them", async () => {
    await withClient(
      () => connectModernClient(url, apiKey),
      async (client) => {
        await client.callTool({ name: "getRepo", arguments: {} });
      },
    );
    const text = await (await request(`${managementUrl(gateway.app)}/q/metrics`)).body.text();
    const answer = /atrium_output_filter_bytes_total\{[^}]*tool="getRepo",stage="answer"\} (\d+)/.exec(text);
    const filtered = /atrium_output_filter_bytes_total\{[^}]*tool="getRepo",stage="filtered"\} (\d+)/.exec(text);
    expect(Number(answer?.[1])).toBeGreaterThanOrEqual(Buffer.byteLength(JSON.stringify(REPOSITORY)));
    expect(Number(filtered?.[1])).toBeGreaterThan(0);
    expect(Number(filtered?.[1])).toBeLessThan(Number(answer?.[1]) / 5);
  });
});

describe("output filters written through the REST API", () => {
  const write = (toolOutputFilters: unknown) =>
    stack.controlPlane.admin.call("POST", "/api/v1/configuration-plans", {
      name: `filters-${Math.random().toString(36).slice(2, 8)}`,
      serviceId,
      backendEndpoint: backend().url,
      toolOutputFilters,
    });

  // Shape errors are the API's 400 INVALID_REQUEST, located like every other field's (docs/api.md).
  it("refuses 10,000 pointers, a bad pointer and a patch without its members, each located", async () => {
    const many = await write({ getRepo: { retain: Array.from({ length: 10_000 }, (_, i) => `/p${i}`) } });
    expect(many.status).toBe(400);
    expect(JSON.stringify(many.body)).toContain("toolOutputFilters.getRepo.retain");
    const bad = await write({
      getRepo: {
        retain: ["no-slash", "/a~2"],
        patches: [
          { op: "add", path: "/x" },
          { op: "move", path: "/y" },
        ],
      },
    });
    expect(bad.status).toBe(400);
    const fields = (bad.body.errors as { field: string; message: string }[]).map((error) => error.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        expect.stringContaining("toolOutputFilters.getRepo.retain.0"),
        expect.stringContaining("toolOutputFilters.getRepo.retain.1"),
        expect.stringContaining("toolOutputFilters.getRepo.patches.0.value"),
        expect.stringContaining("toolOutputFilters.getRepo.patches.1.from"),
      ]),
    );
  });

  it("refuses a tool name the Service does not have", async () => {
    const unknown = await write({ getRepos: { retain: ["/id"] } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([
      { field: "body.toolOutputFilters.getRepos", message: expect.stringContaining("no tool is named getRepos") },
    ]);
  });

  it("accepts a patch it cannot derive a schema through, with a warning", async () => {
    const written = await write({ getRepo: { patches: [{ op: "remove", path: "/topics/0" }] } });
    expect(written.status).toBe(201);
    expect(written.body.warnings).toEqual([
      expect.stringContaining("toolOutputFilters.getRepo: patches[0] (remove /topics/0)"),
    ]);
  });
});
