/**
 * The import through the REST API, on PGlite and PostgreSQL: documents that used to freeze the
 * control plane are imported in a worker while readiness keeps answering; what the gateways
 * would refuse, and URLs the SSRF policy refuses, are 422s that leave nothing stored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createTestDatabase,
  DATABASE_KINDS,
  startTestControlPlane,
  type TestControlPlane,
  type TestDatabase,
} from "../testing.ts";
import { referenceChain } from "./test-documents.ts";

/** A legitimate but large document: `count` operations sharing a handful of schemas. */
function manyOperations(count: number): string {
  const paths: Record<string, unknown> = {};
  for (let index = 0; index < count; index++) {
    paths[`/items${index}/{id}`] = {
      put: {
        operationId: `put${index}`,
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } } },
        responses: {
          "200": {
            description: "ok",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Item" } } },
          },
        },
      },
    };
  }
  const item = {
    type: "object",
    properties: { name: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
  };
  return JSON.stringify({
    openapi: "3.0.3",
    info: { title: "many", version: "1" },
    paths,
    components: { schemas: { Item: item } },
  });
}

describe.each(DATABASE_KINDS)("POST /services (import) on %s", (kind) => {
  let database: TestDatabase | undefined;
  let cp: TestControlPlane;

  beforeAll(async () => {
    database = kind === "postgres" ? await createTestDatabase() : undefined;
    cp = await startTestControlPlane(kind, { databaseUrl: database?.url });
  });
  afterAll(async () => {
    await cp?.close();
    await database?.drop();
  });

  it("imports heavy documents off the event loop: readiness answers within 200 ms meanwhile", async () => {
    const latencies: number[] = [];
    let importing = true;
    const probe = (async () => {
      while (importing) {
        const started = performance.now();
        const ready = await cp.api.call("GET", "/q/health/ready");
        latencies.push(performance.now() - started);
        expect(ready.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    // Small results: the database work (PGlite runs on this thread) stays negligible.
    const documents = [referenceChain(8), referenceChain(12), referenceChain(10), referenceChain(11)];
    // A warm worker imports the four in tens of milliseconds: rounds go on until twenty probes were answered.
    const statuses = new Set<number>();
    for (let round = 0; round < 100 && latencies.length < 20; round++) {
      const answers = await Promise.all(
        documents.map((inline, index) =>
          cp.admin.call("POST", "/api/v1/services", {
            name: `heavy-${round}-${index}`,
            version: "1",
            openapi: { inline },
          }),
        ),
      );
      for (const answer of answers) statuses.add(answer.status);
    }
    importing = false;
    await probe;
    expect([...statuses]).toEqual([201]);
    expect(latencies.length).toBeGreaterThanOrEqual(20);
    // The old import blocked the loop for 40 s and more on the 8x8 document. On a machine this
    // test shares, one probe in twenty may still wait for a core: the 95th percentile is held to
    // 200 ms, and no probe may wait a second.
    const sorted = [...latencies].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length * 0.95)]).toBeLessThan(200);
    expect(sorted.at(-1)).toBeLessThan(1_000);
  });

  it("imports a document of 1,500 operations sharing a schema", async () => {
    const inline = manyOperations(1_500);
    const answer = await cp.admin.call("POST", "/api/v1/services", { name: "many", version: "1", openapi: { inline } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.operationCount).toBe(1_500);
  });

  it("refuses a parameter the gateways would refuse, with its location, and stores nothing", async () => {
    const inline = JSON.stringify({
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: {
        "/a": {
          get: {
            parameters: [{ name: "", in: "query", schema: { type: "string" } }],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    const answer = await cp.admin.call("POST", "/api/v1/services", {
      name: "empty-name",
      version: "1",
      openapi: { inline },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    expect(answer.body.code).toBe("OPENAPI_INVALID");
    expect(answer.body.detail).toContain("'name' must be at least 1 character long");
    expect(answer.body.location).toMatchObject({ pointer: "/paths/~1a/get/parameters/0/name" });
    const list = await cp.admin.call("GET", "/api/v1/services");
    expect(JSON.stringify(list.body)).not.toContain("empty-name");
  });

  it("refuses a URL on a loopback address by default", async () => {
    const url = `${cp.url}/q/health/ready`;
    const answer = await cp.admin.call("POST", "/api/v1/services", { name: "ssrf", version: "1", openapi: { url } });
    expect(answer.status).toBe(422);
    expect(answer.body.code).toBe("OPENAPI_URL_FORBIDDEN");
    expect(answer.body.detail).toContain("loopback");
  });

  it("refuses an uploaded JSON document nested 5,000 levels deep with a 4xx", async () => {
    const deep = `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`;
    const answer = await cp.admin.call("POST", "/api/v1/services/import?name=deep&version=1", deep);
    // Refused by the server's request-body depth limit (400) or by the import's (422): never a 500.
    expect([400, 422], JSON.stringify(answer.body)).toContain(answer.status);
    expect(answer.body.detail).toContain("128 levels");
  });
});
