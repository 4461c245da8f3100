/**
 * The registry's fail-closed rule for Service kinds and call recipes: an Exposition whose Service is
 * of a kind this gateway does not call, or whose operation carries a key the contract does not list
 * (a call recipe a newer control plane may send), is refused on its own and reported, never called
 * as plain HTTP, while the Expositions beside it are served.
 */
import { describe, expect, it } from "vitest";
import { ExpositionRegistry } from "./registry.ts";
import { exposition } from "./tools/fixtures.ts";

function withId(id: string, name: string, kind?: string): Record<string, unknown> {
  const compiled = exposition();
  const { kind: _, ...service } = compiled.service;
  return { ...compiled, id, name, service: kind === undefined ? service : { ...service, kind } };
}

describe("an Exposition's Service kind", () => {
  it("serves the kinds the gateway calls, refuses another on its own, and reads an absent kind as openapi", () => {
    const registry = new ExpositionRegistry();
    const refusals = registry.replaceAll([
      withId("00000000-0000-4000-8000-000000000001", "rest", "openapi"),
      withId("00000000-0000-4000-8000-000000000002", "soap", "soap"),
      withId("00000000-0000-4000-8000-000000000003", "older-control-plane"),
    ]);

    expect(refusals).toEqual([
      {
        expositionId: "00000000-0000-4000-8000-000000000002",
        reason: "unsupported",
        message: expect.stringContaining('its Service is of kind "soap", which this gateway does not call'),
      },
    ]);
    expect(registry.refusals()).toEqual(refusals);
    expect(registry.byId("00000000-0000-4000-8000-000000000001")).toBeDefined();
    expect(registry.byId("00000000-0000-4000-8000-000000000002")).toBeUndefined();
    expect(registry.byId("00000000-0000-4000-8000-000000000003")?.exposition.service.kind).toBe("openapi");

    // A later change to a kind it calls serves it, and drops the refusal.
    registry.apply([withId("00000000-0000-4000-8000-000000000002", "soap", "graphql")], []);
    expect(registry.byId("00000000-0000-4000-8000-000000000002")).toBeDefined();
    expect(registry.refusals()).toEqual([]);
  });

  it("refuses an Exposition whose operation carries a call recipe it does not know, and serves the one beside it", () => {
    const registry = new ExpositionRegistry();
    const good = withId("00000000-0000-4000-8000-000000000001", "rest", "openapi");
    const soap = withId("00000000-0000-4000-8000-000000000002", "soap-recipe", "openapi");
    const service = soap.service as { operations: Record<string, unknown>[] };
    const [first, ...rest] = service.operations;
    service.operations = [{ ...first, soap: { action: "urn:listPets" } }, ...rest];

    const refusals = registry.replaceAll([soap, good]);

    expect(refusals).toEqual([
      {
        expositionId: "00000000-0000-4000-8000-000000000002",
        reason: "unsupported",
        message: expect.stringMatching(/its operation "\w+" carries "soap", which this gateway does not know/),
      },
    ]);
    expect(registry.all().map((exposition) => exposition.id)).toEqual(["00000000-0000-4000-8000-000000000001"]);
  });
});
