/**
 * What the control-plane fault tests (control plane killed, PostgreSQL restarted, change stream
 * cut) set up alike: a scratch folder; everything they start, closed after the file's tests in
 * reverse order, also when a test fails; the fixture Service and a gateway group to expose it on;
 * and the gateway in the test process that follows that group through the faults.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApiClient } from "@atrium/control-plane/testing";
import { type Gateway, startGateway } from "@atrium/gateway";
import { FIXTURE_OPENAPI, testGatewayConfig } from "@atrium/gateway/testing";
import { afterAll } from "vitest";

export interface FaultScene {
  scratch: string;
  /** Registers how to close what was just started, and returns it. */
  closing<T>(started: T, close: (started: T) => unknown): T;
  /**
   * A gateway in the test process, registered through `controlPlaneUrl` with a new API token of
   * `admin`, following the gateway group labelled `env=<label>`; closed with the scene. It syncs
   * in the background: wait for what the test needs.
   */
  followingGateway(admin: ApiClient, label: string, controlPlaneUrl?: string): Promise<Gateway>;
}

/** A scene for one test file; call it at the top level (it registers the file's `afterAll`). */
export function faultScene(name: string): FaultScene {
  const scratch = mkdtempSync(join(tmpdir(), `atrium-${name}-`));
  const closers: (() => unknown)[] = [];
  const scene: FaultScene = {
    scratch,
    closing(started, close) {
      closers.push(() => close(started));
      return started;
    },
    async followingGateway(admin, label, controlPlaneUrl = admin.baseUrl) {
      const token = (await created(admin, "/api/v1/api-tokens", { name: `gw-${label}`, validityDays: 1 })).token;
      const config = testGatewayConfig({
        controlPlaneUrl,
        controlPlaneToken: token,
        id: `gw-${label}`,
        labels: { env: label },
        cacheDir: join(scratch, "gateway-cache"),
      });
      return scene.closing(await startGateway(config), (gateway) => gateway.close());
    },
  };
  afterAll(async () => {
    // Every closer runs, the last started first; the first failure is reported after all of them.
    const failures: unknown[] = [];
    for (const close of closers.reverse())
      await Promise.resolve()
        .then(close)
        .catch((error) => failures.push(error));
    rmSync(scratch, { recursive: true, force: true });
    if (failures.length > 0) throw failures[0];
  });
  return scene;
}

/** A POST that must create (201); the body of the answer. */
// biome-ignore lint/suspicious/noExplicitAny: a REST answer, read field by field
export async function created(admin: ApiClient, path: string, body: unknown): Promise<any> {
  const answer = await admin.call("POST", path, body);
  if (answer.status !== 201) throw new Error(`POST ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The fixture Service (gateway/testing's FIXTURE_OPENAPI) and a gateway group labelled `env=<label>`. */
export async function fixtureServiceAndGroup(
  admin: ApiClient,
  label: string,
): Promise<{ serviceId: string; groupId: number }> {
  const service = await created(admin, "/api/v1/services", {
    name: "fixture",
    version: "1",
    openapi: { inline: FIXTURE_OPENAPI },
  });
  const group = await created(admin, "/api/v1/gateway-groups", { name: label, labels: { env: label } });
  return { serviceId: service.id, groupId: group.id };
}
