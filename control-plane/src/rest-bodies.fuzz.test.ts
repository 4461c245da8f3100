/**
 * Generated request bodies against every write route of the REST API (fast-check). The routes are
 * the POST, PUT and PATCH entries of the access rules table (auth/access-rules.ts, which a test
 * keeps in step with the OpenAPI document), so a new route is fuzzed without touching this file;
 * each is called with a credential its rule admits (the bootstrap admin, else a gateway token).
 * Bodies: valid ones made from the route's schema in the control plane's own OpenAPI document,
 * the same with one field broken (wrong type, removed, edge number, long, deep or unicode value),
 * random JSON, and bytes under wrong content types. Path ids are those of existing records,
 * random UUIDs or junk.
 *
 * Properties, for every case: never a 5xx or a dropped connection; a 4xx is a problem document
 * with a message; a refused write changes nothing (a digest of every row of every table, taken
 * before and after, is the same; GET answers could not show password hashes or change rows);
 * and the control plane still answers a normal request at the end. PGlite by default, and a
 * quarter of the cases on PostgreSQL. 10,000 cases in all; ATRIUM_FUZZ_RUNS sets more.
 */

import { problemDocument } from "@atrium/contract/rest";
import { recordFigures } from "@atrium/reliability";
import { fuzzParameters } from "@atrium/reliability/fuzz";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { ACCESS_RULES, PUBLIC } from "./auth/access-rules.ts";
import { hostileValues, type Json, mutatedAt } from "./fuzz-values.ts";
import { valuesOf } from "./schema-arbitrary.ts";
import {
  type ApiClient,
  createPetstore,
  type DatabaseKind,
  expose,
  type IsolatedControlPlane,
  registerGateway,
  selectRows,
  startIsolatedControlPlane,
  TEST_ADMIN,
  tokenClient,
} from "./testing.ts";

const { numRuns: runs, seed } = fuzzParameters(10_000);
/** PostgreSQL gets a quarter of the cases: what differs there is the driver and its errors, not the routes. */
const shares: Record<DatabaseKind, number> = { pglite: Math.ceil((runs * 3) / 4), postgres: Math.floor(runs / 4) };

type Route = { method: string; path: string; pathTemplate: string; gatewayOnly: boolean; schema: unknown };

/** The write routes of the access rules table, with the JSON body schema the OpenAPI document gives each. */
function writeRoutes(document: { paths: Record<string, Record<string, unknown>> }): Route[] {
  return Object.entries(ACCESS_RULES).flatMap(([key, rule]) => {
    const [method = "", path = ""] = key.split(" ");
    if (!["POST", "PUT", "PATCH"].includes(method)) return [];
    const pathTemplate = path.replace(/:(\w+)/g, "{$1}");
    const operation = document.paths[pathTemplate]?.[method.toLowerCase()] as
      | { requestBody?: { content?: Record<string, { schema?: unknown }> } }
      | undefined;
    const gatewayOnly = rule !== PUBLIC && !rule.includes("user:admin");
    return [
      {
        method,
        path,
        pathTemplate,
        gatewayOnly,
        schema: operation?.requestBody?.content?.["application/json"]?.schema,
      },
    ];
  });
}

type Payload = { contentType: string | undefined; body: string | undefined; kind: string };

const json = (value: Json | undefined, kind: string): Payload => ({
  contentType: "application/json",
  body: value === undefined ? undefined : JSON.stringify(value),
  kind,
});

/** Bodies that are not JSON, or not sent as JSON. */
const rawPayloads: fc.Arbitrary<Payload> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 100 }).map((body) => ({ contentType: "application/json", body, kind: "raw" })),
  fc
    .tuple(
      fc.constantFrom(
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json; charset=utf-16",
        "application/xml",
        "application/yaml",
      ),
      fc.oneof(
        fc.string({ maxLength: 60 }),
        fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
      ),
    )
    .map(([contentType, body]) => ({ contentType, body, kind: "wrong content type" })),
  fc.constantFrom<Payload>(
    { contentType: undefined, body: '{"name":"x"}', kind: "no content type" },
    { contentType: "application/json", body: "", kind: "raw" },
    { contentType: "application/json", body: '{"a":', kind: "raw" },
    { contentType: "application/json", body: `${"[".repeat(5000)}${"]".repeat(5000)}`, kind: "raw" },
    { contentType: "application/json", body: '{"a":1,"a":2}', kind: "raw" },
    { contentType: "application/json", body: "\uFEFF{}", kind: "raw" },
  ),
);

function payloads(route: Route, document: Record<string, unknown>): fc.Arbitrary<Payload> {
  const valid = route.schema === undefined ? fc.constant<Json>({}) : valuesOf(route.schema, document);
  return fc.oneof(
    { weight: 3, arbitrary: valid.map((value) => json(value, "valid")) },
    {
      weight: 5,
      arbitrary: fc
        .tuple(valid, fc.nat(), fc.option(hostileValues, { freq: 5, nil: undefined }))
        .map(([value, pick, breaker]) => json(mutatedAt(value, pick, breaker), "one field broken")),
    },
    { weight: 2, arbitrary: hostileValues.map((value) => json(value, "random JSON")) },
    { weight: 1, arbitrary: rawPayloads },
  );
}

/** A digest of every row of every table: what a refused write must leave as it was. */
async function stateDigest(controlPlane: IsolatedControlPlane, tables: string[]): Promise<string> {
  const parts = tables.map(
    (table) =>
      `select '${table}' || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as part from "${table}" t`,
  );
  const [row] = await selectRows<{ digest: string }>(
    controlPlane,
    sql.raw(`select string_agg(part, ' ' order by part) as digest from (${parts.join(" union all ")}) parts`),
  );
  return row?.digest ?? "";
}

function rssMb(): number {
  return Math.round(process.memoryUsage().rss / 1e6);
}

describe.each(Object.entries(shares) as [DatabaseKind, number][])("REST bodies on %s", (kind, cases) => {
  it(`never a 5xx, a 4xx says what is wrong and changes nothing (${cases} cases)`, async () => {
    // Login failures are part of the fuzzing: no rate limit may lock the test's admin out.
    const controlPlane = await startIsolatedControlPlane(kind, {
      loginMaxFailures: { perUser: Number.MAX_SAFE_INTEGER, perAddress: Number.MAX_SAFE_INTEGER },
    });
    try {
      await fuzz(controlPlane, cases, kind);
    } finally {
      await controlPlane.stop();
    }
  }, 1_800_000);
});

async function fuzz(controlPlane: IsolatedControlPlane, cases: number, kind: DatabaseKind): Promise<void> {
  const before = rssMb();
  const started = performance.now();
  const document = (await controlPlane.api.call("GET", "/api/v1/openapi.json")).body;
  const routes = writeRoutes(document);
  expect(routes.length).toBeGreaterThan(20);

  // Records for the path ids to name, and a gateway for the gateway routes.
  let admin: ApiClient = controlPlane.admin;
  const gateway = await tokenClient(controlPlane, "fuzz-gateways");
  await registerGateway(gateway, { id: "fuzz-gw", instanceId: "fuzz-instance-1" }, { env: "fuzz" });
  await createPetstore(admin, "fuzzed");
  const exposed = await expose(admin, "fuzz");
  const member = await admin.call("POST", "/api/v1/users", {
    username: "member",
    password: "member-password-1",
    role: "member",
  });
  const ids: string[] = [
    exposed.serviceId,
    exposed.planId,
    String(exposed.groupId),
    exposed.expositionId,
    member.body.id,
    "fuzz-gw",
  ];

  const tables = (
    await selectRows<{ name: string }>(
      controlPlane,
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    )
  ).map(({ name }) => name);
  let digest = await stateDigest(controlPlane, tables);

  const answers = new Map<string, number>();
  const count = (key: string) => answers.set(key, (answers.get(key) ?? 0) + 1);
  const generated = fc.constantFrom(...routes).chain((route) =>
    fc.record({
      route: fc.constant(route),
      payload: payloads(route, document),
      id: fc.oneof(
        { weight: 6, arbitrary: fc.nat() },
        { weight: 1, arbitrary: fc.uuid() },
        { weight: 1, arbitrary: fc.constantFrom("0", "-1", "1e99", "..", "%00", "a/b", "😀", " ", "x".repeat(300)) },
      ),
    }),
  );

  await fc.assert(
    fc.asyncProperty(generated, async ({ route, payload, id }) => {
      const caseStarted = performance.now();
      const idValue = typeof id === "number" ? (ids[id % ids.length] ?? "") : id;
      const path = route.path.replace(/:\w+/, encodeURIComponent(idValue));
      const credential = route.gatewayOnly ? gateway : admin;
      const answer = await request(`${controlPlane.url}${path}`, {
        method: route.method as "POST",
        headers: {
          ...(payload.contentType === undefined ? {} : { "content-type": payload.contentType }),
          authorization: `Bearer ${credential.token}`,
        },
        body: payload.body,
      });
      const text = await answer.body.text();
      const status = answer.statusCode;
      count(`${status}`);
      const where = `${route.method} ${route.pathTemplate} (${payload.kind}) → ${status} ${text.slice(0, 300)}`;
      expect(status, where).toBeLessThan(500);
      const requested = performance.now();
      const after = await stateDigest(controlPlane, tables);
      const ms = (from: number) => Math.round(performance.now() - from);
      if (ms(caseStarted) > 2000)
        console.log(`slow case (${ms(caseStarted)} ms, digest ${ms(requested)} ms): ${where.slice(0, 120)}`);
      if (status >= 400) {
        expect(String(answer.headers["content-type"]), where).toContain("application/problem+json");
        const problem = problemDocument.parse(JSON.parse(text));
        expect(problem.detail ?? problem.title ?? "", where).not.toBe("");
        expect(after, `a refused write changed the state: ${where}`).toBe(digest);
        return;
      }
      digest = after;
      const created = text ? (JSON.parse(text) as { id?: unknown }) : {};
      if (typeof created.id === "string" || typeof created.id === "number") ids.push(String(created.id));
      // An accepted logout ends the admin's session: log in again, as a person would.
      if ((await admin.call("GET", "/api/v1/info")).status === 401) {
        admin = await controlPlane.api.login(TEST_ADMIN);
        digest = await stateDigest(controlPlane, tables);
      }
    }),
    // No shrinking: each step costs requests; the failure names its route, body kind and answer, and the seed replays it.
    { numRuns: cases, seed, endOnFailure: true },
  );

  // Still serving: a normal read and a normal write.
  expect((await admin.call("GET", "/api/v1/services")).status).toBe(200);
  expect((await admin.call("POST", "/api/v1/gateway-groups", { name: "after-fuzz", labels: {} })).status).toBe(201);

  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const after = rssMb();
  const byStatus = [...answers]
    .sort()
    .map(([status, n]) => `${status}×${n}`)
    .join(" ");
  console.log(
    `${kind}: ${cases} cases on ${routes.length} write routes in ${seconds} s, RSS ${before} MB → ${after} MB; answers ${byStatus}`,
  );
  return record(kind, cases, routes.length, answers, { before, after, seconds });
}

/** Both databases' figures go in one row: each run writes its own share, the row adds them up. */
const recorded: Partial<Record<DatabaseKind, { cases: number; details: Record<string, number | string> }>> = {};

function record(
  kind: DatabaseKind,
  cases: number,
  routes: number,
  answers: Map<string, number>,
  measured: { before: number; after: number; seconds: number },
): void {
  const byClass = (prefix: string) =>
    [...answers].filter(([status]) => status.startsWith(prefix)).reduce((sum, [, n]) => sum + n, 0);
  recorded[kind] = {
    cases,
    details: {
      [`${kind}: 2xx`]: byClass("2"),
      [`${kind}: 4xx`]: byClass("4"),
      [`${kind}: RSS before/after (MB)`]: `${measured.before}/${measured.after}`,
      [`${kind}: seconds`]: measured.seconds,
    },
  };
  const all = Object.values(recorded);
  recordFigures("fuzz-rest-bodies", {
    tried: all.reduce((sum, entry) => sum + entry.cases, 0),
    unit: "generated requests",
    lost: 0,
    details: { "write routes": routes, ...Object.assign({}, ...all.map((entry) => entry.details)) },
  });
}
