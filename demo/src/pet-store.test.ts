/**
 * The demo's pet store on a free loopback port: its OpenAPI document names the port it listens
 * on, the store answers as the document says (list, filter, create, read, delete, 404s in words),
 * and below /keyed a call needs a key that is not `revoked`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoBackend } from "./pet-store.ts";

let store: Awaited<ReturnType<typeof startDemoBackend>>;

beforeAll(async () => {
  store = await startDemoBackend(0);
});
afterAll(async () => {
  await new Promise((resolve) => store?.server.close(resolve));
});

async function call(path: string, init: { method?: string; body?: unknown; key?: string } = {}) {
  const response = await fetch(`${store.url}${path}`, {
    method: init.method ?? "GET",
    headers: {
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...(init.key === undefined ? {} : { "x-pet-key": init.key }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

describe("the demo pet store", () => {
  it("serves its OpenAPI document with its own address as the server", async () => {
    const { status, body } = await call("/openapi.json");
    expect(status).toBe(200);
    expect(body.servers).toEqual([{ url: store.url }]);
    expect(Object.keys(body.paths)).toContain("/pets/{petId}");
  });

  it("lists, filters, creates, reads and deletes pets, and says what is missing", async () => {
    expect((await call("/pets")).body.map((pet: { name: string }) => pet.name)).toEqual(["Rex", "Whiskers", "Goldie"]);
    expect((await call("/pets?status=sold")).body).toEqual([{ id: 3, name: "Goldie", status: "sold" }]);
    const created = await call("/pets", { method: "POST", body: { name: "Nemo" } });
    expect(created).toEqual({ status: 201, body: { id: 4, name: "Nemo", status: "available" } });
    expect((await call("/pets", { method: "POST", body: {} })).body).toEqual({ error: "name is required" });
    expect((await call("/pets/4")).body.name).toBe("Nemo");
    expect((await call("/pets/4", { method: "DELETE" })).status).toBe(204);
    expect(await call("/pets/4")).toEqual({ status: 404, body: { error: "no pet 4" } });
  });

  it("below /keyed, answers only a call with a key that is not revoked", async () => {
    expect((await call("/keyed/pets/1")).status).toBe(401);
    expect((await call("/keyed/pets/1", { key: "revoked" })).status).toBe(401);
    expect(await call("/keyed/pets/1", { key: "mine" })).toEqual({
      status: 200,
      body: { id: 1, name: "Rex", status: "available" },
    });
  });
});
