/**
 * The CustomTools, Resources and Prompts reconciler on a real API server and control plane: each
 * reports `status.state`, waits IN_PROGRESS for its Service, then becomes READY with one record
 * attached to that Service.
 */
import { sampleOpenApi } from "@atrium/control-plane/testing";
import { describe, expect, it } from "vitest";
import { resource, useOperatorHarness } from "../../testing.ts";

const testHarness = useOperatorHarness("artifacts");

const artifacts = [
  {
    kind: "CustomTools",
    collection: "/custom-tools",
    spec: { tools: [{ name: "mark_sold", description: "Marks a pet sold", request: { method: "PATCH", path: "/x" } }] },
  },
  {
    kind: "Resources",
    collection: "/resources",
    spec: { resources: [{ uri: "docs://policy", name: "policy", text: "Adults only." }] },
  },
  {
    kind: "Prompts",
    collection: "/prompts",
    spec: { prompts: [{ name: "hello", messages: [{ role: "user", text: "Hello {{name}}" }] }] },
  },
];

describe("CustomTools, Resources and Prompts", () => {
  it("wait IN_PROGRESS for their Service, then are READY with one record each, attached to it", async () => {
    const harness = testHarness();
    for (const { kind, spec } of artifacts) {
      await harness.create(resource(kind, `late-${kind.toLowerCase()}`, { serviceRef: { name: "pets" }, ...spec }));
    }
    for (const { kind } of artifacts) {
      const waiting = await harness.waitState(kind, `late-${kind.toLowerCase()}`, "IN_PROGRESS", /Service pets/);
      expect(waiting.status).not.toHaveProperty("status");
    }
    await harness.create(resource("Service", "pets", { version: "1.0.0", openapi: { inline: sampleOpenApi() } }));
    const service = await harness.waitReady("Service", "pets");
    for (const { kind, collection } of artifacts) {
      const ready = await harness.waitReady(kind, `late-${kind.toLowerCase()}`);
      const records = (await harness.records(collection)).filter((r) => r.name === `late-${kind.toLowerCase()}`);
      expect(records, kind).toEqual([expect.objectContaining({ id: ready.status?.id, serviceId: service.status?.id })]);
    }
  });
});
