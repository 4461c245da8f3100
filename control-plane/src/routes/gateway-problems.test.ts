/**
 * Problems gateways report (Expositions they received but do not serve), on PGlite and on
 * PostgreSQL: shown in the Exposition's view, replaced by each report, kept to the organization's
 * own Expositions, refused when malformed, and forgotten with the gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiClient,
  addOrganization,
  DATABASE_KINDS,
  expose,
  type IsolatedControlPlane,
  registerGateway,
  startIsolatedControlPlane,
  tokenClient,
} from "../testing.ts";

const gateway = { id: "gw-problems", instanceId: "problems-test-instance" };
const reportPath = `/api/v1/gateways/${gateway.id}/problems`;

/** An Exposition of its own, on a group the reporting gateway (region eu) belongs to. */
async function exposeInEu(client: ApiClient, name: string): Promise<string> {
  return (await expose(client, name, { labels: { region: "eu" } })).expositionId;
}

describe.each(DATABASE_KINDS)("gateway problems on %s", (kind) => {
  let controlPlane: IsolatedControlPlane;
  let reporter: ApiClient;
  let eu: string;
  let us: string;
  let foreign: string;

  beforeAll(async () => {
    controlPlane = await startIsolatedControlPlane(kind);
    eu = await exposeInEu(controlPlane.admin, "eu");
    us = await exposeInEu(controlPlane.admin, "us");
    foreign = await exposeInEu(await addOrganization(controlPlane, "other"), "eu");
    reporter = await tokenClient(controlPlane, "gw");
    const answer = await registerGateway(reporter, gateway, { region: "eu" });
    expect(answer).toMatchObject({ heartbeatSeconds: 15, organization: { name: "default" } });
  });
  afterAll(async () => {
    await controlPlane?.stop();
  });

  const problemsOf = async (id: string) =>
    (await controlPlane.admin.call("GET", `/api/v1/expositions/${id}`)).body.problems;

  it("shows what a gateway reports, replaced by its next report", async () => {
    /** Reports `problems` as the gateway's whole current set; the control plane accepts it. */
    const report = async (problems: { expositionId: string; message: string }[]) => {
      const response = await reporter.call("PUT", reportPath, { instanceId: gateway.instanceId, problems });
      expect(response.status).toBe(204);
    };
    await report([{ expositionId: eu, message: "contract: parameters.0.name" }]);
    const [first] = await problemsOf(eu);
    expect(first).toEqual({ gatewayId: gateway.id, message: "contract: parameters.0.name", at: expect.any(String) });
    expect(await problemsOf(us)).toEqual([]);

    // Reported again, a problem keeps the time it was first seen; another one is added.
    await report([
      { expositionId: eu, message: "contract: parameters.0.name" },
      { expositionId: us, message: "env not allowed" },
    ]);
    expect(await problemsOf(eu)).toEqual([first]);
    expect((await problemsOf(us))[0]?.message).toBe("env not allowed");
    const listed = await controlPlane.admin.call("GET", "/api/v1/expositions");
    expect(listed.body.items.find((e: { id: string }) => e.id === us).problems).toHaveLength(1);

    // Another organization's Exposition is not kept; the fixed one is cleared.
    await report([
      { expositionId: foreign, message: "x" },
      { expositionId: us, message: "env" },
    ]);
    expect(await problemsOf(eu)).toEqual([]);
    expect((await problemsOf(us))[0]?.message).toBe("env");
    await report([]);
    expect(await problemsOf(us)).toEqual([]);
  });

  it("refuses malformed reports, other instances and callers without a token", async () => {
    const cases: [unknown, string][] = [
      [
        { instanceId: gateway.instanceId, problems: [{ expositionId: "eu", message: "x" }] },
        "body.problems.0.expositionId",
      ],
      [{ instanceId: gateway.instanceId, problems: [{ expositionId: eu, message: "" }] }, "body.problems.0.message"],
      [
        { instanceId: gateway.instanceId, problems: [{ expositionId: eu, message: "x".repeat(501) }] },
        "body.problems.0.message",
      ],
      [{ problems: [] }, "body.instanceId"],
    ];
    for (const [body, field] of cases) {
      const refused = await reporter.call("PUT", reportPath, body);
      expect(refused.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(refused.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const impostor = await reporter.call("PUT", reportPath, { instanceId: "another-instance", problems: [] });
    expect(impostor.status).toBe(404);
    const anonymous = await controlPlane.api.call("PUT", reportPath, { instanceId: gateway.instanceId, problems: [] });
    expect(anonymous.status).toBe(401);
  });

  it("forgets a gateway's problems with its registration", async () => {
    // A gateway of its own: the others' tests keep theirs registered, whatever the order.
    const leaving = { id: "gw-leaving", instanceId: "problems-test-leaving" };
    await registerGateway(reporter, leaving, { region: "eu" });
    const itsProblems = async () =>
      (await problemsOf(eu)).filter((problem: { gatewayId: string }) => problem.gatewayId === leaving.id);
    await reporter.call("PUT", `/api/v1/gateways/${leaving.id}/problems`, {
      instanceId: leaving.instanceId,
      problems: [{ expositionId: eu, message: "x" }],
    });
    expect(await itsProblems()).toHaveLength(1);
    const deleted = await reporter.call("DELETE", `/api/v1/gateways/${leaving.id}?instanceId=${leaving.instanceId}`);
    expect(deleted.status).toBe(204);
    expect(await itsProblems()).toEqual([]);
  });
});
