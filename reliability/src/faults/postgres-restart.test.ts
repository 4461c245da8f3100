/**
 * Fault: PostgreSQL stopped and restarted under a steady stream of writes. A private PostgreSQL
 * server (never the machine's shared one) holds the database of a control-plane process; two
 * writers create, import, update and delete Services, plans and Expositions through the REST API
 * while the server is stopped in fast mode, then in immediate mode, and started again.
 *
 * Checked: the control plane recovers without a restart (same process; readiness DOWN during the
 * outage, UP after); during the outage writes get a 503 DATABASE_UNAVAILABLE problem, never a 500
 * and never a hang; every write acknowledged with a 2xx is in the database afterwards; and none is
 * half-applied: every record has the change row of its write, no deleted record survives its
 * deletion's change row, no change row names a record that never existed. A gateway follows the
 * writers' Expositions through it all and ends up serving exactly what the database holds.
 */
import { FIXTURE_OPENAPI, waitFor } from "@atrium/gateway/testing";
import pg from "pg";
import { request } from "undici";
import { beforeAll, describe, expect, it } from "vitest";
import { recordFigures } from "../figures.ts";
import { ADMIN, type ControlPlaneProcess, controlPlaneProcess } from "./control-plane-process.ts";
import { type PrivatePostgres, type StopMode, startPrivatePostgres } from "./private-postgres.ts";
import { created, faultScene } from "./scene.ts";

/** A request that takes longer than this is a hang. */
const HANG_MS = 15_000;
const WRITERS = 2;
const OUTAGE_MS = 1_500;
const WRITES_BETWEEN_MS = 2_500;

const scene = faultScene("pg-restart");
let postgres: PrivatePostgres;
let controlPlane: ControlPlaneProcess;
let databaseUrl: string;

beforeAll(async () => {
  postgres = scene.closing(await startPrivatePostgres(), (started) => started.remove());
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  await admin.query("create database atrium");
  await admin.end();
  databaseUrl = postgres.url.replace(/\/postgres$/, "/atrium");
  controlPlane = scene.closing(await controlPlaneProcess({ databaseUrl, scratch: scene.scratch }), (started) =>
    started.kill(),
  );
  await controlPlane.start();
}, 120_000);

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: what the API answered
  body: any;
}

/** What the writers saw, by outcome. */
const seen = { acknowledged: 0, unavailable: 0, refusedOtherwise: 0, failed: [] as string[] };

/** One REST call with a bound: a hang, a 5xx other than 503 DATABASE_UNAVAILABLE, or no answer is a failure. */
async function call(token: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const started = Date.now();
  try {
    const response = await request(`${controlPlane.url}${path}`, {
      method: method as "GET",
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      headersTimeout: HANG_MS,
      bodyTimeout: HANG_MS,
    });
    const text = await response.body.text();
    const answer = { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
    if (answer.status < 300) seen.acknowledged++;
    else if (answer.status === 503 && answer.body?.code === "DATABASE_UNAVAILABLE") {
      seen.unavailable++;
      await sleep(100); // as a client told to retry later would, if less patiently
    } else if (answer.status >= 500) seen.failed.push(`${method} ${path}: ${answer.status} ${text.slice(0, 300)}`);
    else seen.refusedOtherwise++;
    return answer;
  } catch (error) {
    seen.failed.push(`${method} ${path}: no answer after ${Date.now() - started} ms (${(error as Error).message})`);
    return { status: 0, body: undefined };
  }
}

/** What one writer's chain of writes did to a record, as far as the answers tell. */
interface Written {
  kind: "Service" | "ConfigurationPlan" | "Exposition";
  id: string;
  /** A 2xx answered its deletion. */
  deleted: boolean;
  /** Its deletion was sent but not acknowledged: it may or may not be gone. */
  maybeDeleted: boolean;
  /** Plans: the endpoint versions acknowledged, and those sent without an acknowledgement after the last one. */
  acknowledgedVersion?: number;
  unacknowledgedVersions?: number[];
}

async function writer(token: string, index: number, groupId: number, running: () => boolean): Promise<Written[]> {
  const written: Written[] = [];
  for (let round = 0; running(); round++) {
    const name = `w${index}-${round}`;
    const service = await call(token, "POST", `/api/v1/services/import?name=${name}&version=1`, FIXTURE_OPENAPI);
    if (service.status !== 201) continue;
    const serviceRecord: Written = { kind: "Service", id: service.body.id, deleted: false, maybeDeleted: false };
    written.push(serviceRecord);
    const planBody = (version: number) => ({
      name,
      serviceId: service.body.id,
      backendEndpoint: `http://127.0.0.1:9/v${version}`,
    });
    const plan = await call(token, "POST", "/api/v1/configuration-plans", planBody(0));
    if (plan.status !== 201) continue;
    const planRecord: Written = {
      kind: "ConfigurationPlan",
      id: plan.body.id,
      deleted: false,
      maybeDeleted: false,
      acknowledgedVersion: 0,
      unacknowledgedVersions: [],
    };
    written.push(planRecord);
    const exposition = await call(token, "POST", "/api/v1/expositions", {
      name,
      configurationPlanId: plan.body.id,
      gatewayGroupId: groupId,
    });
    const expositionRecord: Written | undefined =
      exposition.status === 201
        ? { kind: "Exposition", id: exposition.body.id, deleted: false, maybeDeleted: false }
        : undefined;
    if (expositionRecord) written.push(expositionRecord);
    for (const version of [1, 2]) {
      const updated = await call(token, "PUT", `/api/v1/configuration-plans/${plan.body.id}`, planBody(version));
      if (updated.status === 200) {
        planRecord.acknowledgedVersion = version;
        planRecord.unacknowledgedVersions = [];
      } else {
        planRecord.unacknowledgedVersions?.push(version);
      }
    }
    // Every other round is torn down again: deletions are writes too.
    if (round % 2 === 1 || !expositionRecord) continue;
    for (const [record, path] of [
      [expositionRecord, `/api/v1/expositions/${expositionRecord.id}`],
      [planRecord, `/api/v1/configuration-plans/${plan.body.id}`],
      [serviceRecord, `/api/v1/services/${service.body.id}`],
    ] as const) {
      const deleted = await call(token, "DELETE", path);
      if (deleted.status !== 204) {
        record.maybeDeleted = true;
        break;
      }
      record.deleted = true;
    }
  }
  return written;
}

/** Readiness as the process answers it now (0: no answer). */
async function readiness(): Promise<number> {
  return (await controlPlane.api.call("GET", "/q/health/ready").catch(() => ({ status: 0 }))).status;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("PostgreSQL stopped and restarted under steady writes", () => {
  it("recovers without a restart; acknowledged writes are kept, none half-applied; 503 while down", async () => {
    const live = controlPlane;
    const server = postgres;
    const pid = live.child?.pid;
    const admin = await live.api.login(ADMIN);
    const token = admin.token as string;
    const group = await created(admin, "/api/v1/gateway-groups", { name: "writes", labels: { env: "writes" } });
    // A gateway follows the change stream of the group the writers expose on, across the restarts.
    const following = await scene.followingGateway(admin, "writes");
    await waitFor(() => following.sync.ready, "the gateway's first snapshot");

    let running = true;
    const writers = Array.from({ length: WRITERS }, (_, index) => writer(token, index, group.id, () => running));
    /** Per restart: how long after PostgreSQL accepted connections again the control plane was ready. */
    const readyAfter: number[] = [];
    try {
      await sleep(WRITES_BETWEEN_MS);
      for (const mode of ["fast", "immediate", "fast", "immediate"] as StopMode[]) {
        server.stop(mode);
        await sleep(OUTAGE_MS);
        // During the outage: not ready, a write refused as unavailable, the process alive.
        expect(await readiness(), `${mode} stop; the control plane printed:\n${live.output().slice(-4000)}`).toBe(503);
        const refused = await call(token, "POST", "/api/v1/gateway-groups", {
          name: `down-${mode}-${readyAfter.length}`,
          labels: {},
        });
        expect(refused.status).toBe(503);
        expect(refused.body.detail).toMatch(/database is unavailable/);
        server.start();
        const startedAt = Date.now();
        while ((await readiness()) !== 200) {
          if (Date.now() - startedAt > 20_000) throw new Error(`not ready 20 s after PostgreSQL (${mode}) came back`);
          await sleep(100);
        }
        readyAfter.push(Date.now() - startedAt);
        const writesBefore = seen.acknowledged;
        await sleep(WRITES_BETWEEN_MS);
        // Writes are acknowledged again, by the same process.
        expect(seen.acknowledged).toBeGreaterThan(writesBefore);
      }
    } finally {
      running = false;
    }
    const written = (await Promise.all(writers)).flat();
    expect(live.child?.pid).toBe(pid);
    expect(live.child?.exitCode).toBeNull();
    expect(seen.failed, seen.failed.join("\n")).toEqual([]);
    expect(seen.unavailable).toBeGreaterThan(0);

    // What the database holds, read directly.
    const database = new pg.Client({ connectionString: databaseUrl });
    await database.connect();
    let lost: string[] = [];
    const halfApplied: string[] = [];
    /** Each Exposition the database holds, with its plan's endpoint: what the gateway must end up serving. */
    let expected = "";
    try {
      const ids = async (table: string) =>
        new Set((await database.query(`select id::text from ${table}`)).rows.map((row) => row.id as string));
      const present = {
        Service: await ids("services"),
        ConfigurationPlan: await ids("configuration_plans"),
        Exposition: await ids("expositions"),
      };
      const endpoints = new Map(
        (await database.query("select id::text, backend_endpoint from configuration_plans")).rows.map((row) => [
          row.id as string,
          Number(/\/v(\d+)$/.exec(row.backend_endpoint)?.[1]),
        ]),
      );
      lost = written.flatMap((record) => {
        const there = present[record.kind].has(record.id);
        if (record.deleted && there) return [`${record.kind} ${record.id}: deleted (204) but still there`];
        if (!record.deleted && !record.maybeDeleted && !there)
          return [`${record.kind} ${record.id}: acknowledged, gone`];
        if (record.kind === "ConfigurationPlan" && there) {
          const version = endpoints.get(record.id) as number;
          const allowed = [record.acknowledgedVersion, ...(record.unacknowledgedVersions ?? [])];
          if (!allowed.includes(version))
            return [`plan ${record.id}: endpoint v${version}, expected one of ${allowed}`];
        }
        return [];
      });
      expected = JSON.stringify(
        (
          await database.query(
            "select e.id::text as id, p.backend_endpoint as endpoint from expositions e join configuration_plans p on p.id = e.configuration_plan_id order by e.id",
          )
        ).rows.map((row) => [row.id, row.endpoint]),
      );
      const changes = (
        await database.query(
          "select kind, record_id, deleted from changes where kind in ('Service', 'ConfigurationPlan', 'Exposition')",
        )
      ).rows as { kind: keyof typeof present; record_id: string; deleted: boolean }[];
      const changed = new Set(changes.filter((row) => !row.deleted).map((row) => `${row.kind} ${row.record_id}`));
      const deletedChanges = new Set(changes.filter((row) => row.deleted).map((row) => `${row.kind} ${row.record_id}`));
      for (const [kind, rows] of Object.entries(present)) {
        for (const id of rows) {
          if (!changed.has(`${kind} ${id}`)) halfApplied.push(`${kind} ${id} has no change row`);
          if (deletedChanges.has(`${kind} ${id}`)) halfApplied.push(`${kind} ${id} survived its deletion's change row`);
        }
      }
      for (const row of changes) {
        const key = `${row.kind} ${row.record_id}`;
        if (!row.deleted && !present[row.kind].has(row.record_id) && !deletedChanges.has(key)) {
          halfApplied.push(`${key}: a change row for a record that is not there and was not deleted`);
        }
      }
      // Plans: one change row per applied write (create and each update), so never fewer than acknowledged.
      for (const record of written.filter((entry) => entry.kind === "ConfigurationPlan")) {
        const rows = changes.filter((row) => row.record_id === record.id && !row.deleted).length;
        if (present.ConfigurationPlan.has(record.id) && rows < 1 + (record.acknowledgedVersion ?? 0)) {
          halfApplied.push(
            `plan ${record.id}: ${rows} change rows for ${record.acknowledgedVersion} acknowledged updates`,
          );
        }
      }
    } finally {
      await database.end();
    }
    expect(lost, lost.join("\n")).toEqual([]);
    expect(halfApplied, halfApplied.join("\n")).toEqual([]);
    expect(written.length).toBeGreaterThan(10);

    // The gateway got every change through the restarts: it serves exactly what the database holds.
    // (Its revision may stay behind: changes that touch none of its Expositions are not sent to it.)
    const convergingAt = Date.now();
    const served = () =>
      JSON.stringify(
        following.registry
          .all()
          .map((exposition) => [exposition.id, exposition.plan.backendEndpoint])
          .sort(([a], [b]) => ((a as string) < (b as string) ? -1 : 1)),
      );
    await waitFor(() => served() === expected, "the gateway serving what the database holds", 20_000).catch(
      (error: Error) => {
        throw new Error(`${error.message}:\nexpected ${expected}\nserved   ${served()}`);
      },
    );
    const gatewayConvergedMs = Date.now() - convergingAt;

    const tried = seen.acknowledged + seen.unavailable + seen.refusedOtherwise + seen.failed.length;
    const recorded = recordFigures("fault-postgres-restart", {
      tried,
      unit: "REST writes",
      lost: lost.length + halfApplied.length + seen.failed.length,
      details: {
        "PostgreSQL restarts": readyAfter.length,
        "acknowledged (2xx)": seen.acknowledged,
        "503 DATABASE_UNAVAILABLE": seen.unavailable,
        "records checked": written.length,
        "ready again after PostgreSQL (ms, fast / immediate / fast / immediate)": readyAfter.join(" / "),
        "control-plane restarts": 0,
        "gateway at the database's state after (ms)": gatewayConvergedMs,
      },
    });
    console.log(JSON.stringify(recorded));
  }, 90_000);
});
