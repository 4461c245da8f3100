/**
 * The operator's control-plane client against a real control plane (PGlite): records read with
 * the contract's views, a refused token read again once, and each failure as the operator's
 * coded error.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startTestControlPlane, type TestControlPlane } from "@atrium/control-plane/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OperatorError } from "../errors.ts";
import type { TokenSource } from "../token.ts";
import { ControlPlaneClient, collections } from "./client.ts";

/** A token source that hands out `tokens` in turn, moving on only when invalidated. */
function rotatingToken(tokens: string[]): TokenSource & { invalidations: number } {
  let index = 0;
  return {
    description: "test tokens",
    invalidations: 0,
    get: async () => tokens[Math.min(index, tokens.length - 1)] as string,
    invalidate() {
      this.invalidations += 1;
      index += 1;
    },
  };
}

describe("ControlPlaneClient", () => {
  let cp: TestControlPlane;
  let token: string;
  const clients: ControlPlaneClient[] = [];
  const client = (source: TokenSource, url = cp.url) => {
    const created = new ControlPlaneClient({ url, token: source, timeoutMs: 2_000 });
    clients.push(created);
    return created;
  };

  beforeAll(async () => {
    cp = await startTestControlPlane("pglite");
    const created = await cp.admin.call("POST", "/api/v1/api-tokens", {
      name: "operator",
      validityDays: 1,
      role: "operator",
    });
    token = created.body.token;
  }, 60_000);
  afterAll(async () => {
    for (const each of clients) await each.close();
    await cp?.close();
  });

  it("creates, reads, lists, replaces and removes records with the contract's views", async () => {
    const api = client(rotatingToken([token]));
    const group = await api.create(collections.gatewayGroups, { name: "eu", labels: { region: "eu" } });
    expect(group).toMatchObject({ name: "eu", labels: { region: "eu" } });
    expect(Number.isInteger(group.id)).toBe(true);
    expect((await api.get(collections.gatewayGroups, group.id))?.labels).toEqual({ region: "eu" });
    expect((await api.list(collections.gatewayGroups)).map((record) => record.name)).toContain("eu");
    const replaced = await api.replace(collections.gatewayGroups, group.id, { name: "eu", description: "Europe" });
    expect(replaced.description).toBe("Europe");
    expect(await api.remove(collections.gatewayGroups, group.id)).toBe(true);
    expect(await api.remove(collections.gatewayGroups, group.id)).toBe(false);
    expect(await api.get(collections.gatewayGroups, group.id)).toBeUndefined();
    expect((await api.organization()).name).toBe("default");
  });

  it("reads the token again once after a 401 (a rotated Secret), and fails when that one is refused too", async () => {
    const rotated = rotatingToken(["atr_t_revoked", token]);
    expect((await client(rotated).organization()).name).toBe("default");
    expect(rotated.invalidations).toBe(1);

    const refused = rotatingToken(["atr_t_revoked", "atr_t_still-wrong"]);
    const error = await client(refused)
      .organization()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperatorError);
    expect(error).toMatchObject({ code: "CONTROL_PLANE_REJECTED", status: 401 });
    expect(refused.invalidations).toBe(1);
  });

  it("keeps a refusal's code and detail", async () => {
    const api = client(rotatingToken([token]));
    await api.create(collections.gatewayGroups, { name: "twice" });
    const error = await api.create(collections.gatewayGroups, { name: "twice" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "CONTROL_PLANE_REJECTED", status: 409 });
    expect((error as Error).message).toBe(
      "control plane refused POST /gateway-groups (409 ALREADY_EXISTS): " +
        "Gateway group 'twice' already exists in this organization: choose another name",
    );
  });

  it("calls a control plane that does not answer, or answers 503, unreachable", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const down = await client(rotatingToken([token]), `http://127.0.0.1:${port}`)
      .list(collections.services)
      .catch((e: unknown) => e);
    expect(down).toMatchObject({ code: "CONTROL_PLANE_UNREACHABLE" });
    expect((down as Error).message).toMatch(/^control plane unreachable: GET \/services got no answer/);

    const busy = createServer((_request, response) => response.writeHead(503).end("<html>busy</html>"));
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(busy.address() as AddressInfo).port}`;
      const error = await client(rotatingToken([token]), url)
        .list(collections.services)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "CONTROL_PLANE_UNREACHABLE" });
      expect((error as Error).message).toBe("control plane unreachable: GET /services answered 503: <html>busy</html>");
    } finally {
      busy.closeAllConnections();
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});
