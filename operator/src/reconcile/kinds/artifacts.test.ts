/**
 * The CustomTools, Resources and Prompts reconciler on a real API server and control plane: each
 * reports `status.state`, waits IN_PROGRESS for its Service, then becomes READY at its generation
 * (`status.observedGeneration`) with one record attached to that Service, and follows a spec change.
 */
import { sampleOpenApi } from "@atrium/control-plane/testing";
import { describe, expect, it } from "vitest";
import { patchResource, resource, useOperatorHarness, waitFor } from "../../testing.ts";

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
  it("wait IN_PROGRESS for their Service, then are READY at their generation with one record each, attached to it", async () => {
    const harness = testHarness();
    for (const { kind, spec } of artifacts) {
      await harness.create(resource(kind, `late-${kind.toLowerCase()}`, { serviceRef: { name: "pets" }, ...spec }));
    }
    for (const { kind } of artifacts) {
      const waiting = await harness.waitState(kind, `late-${kind.toLowerCase()}`, "IN_PROGRESS", /Service pets/);
      expect(waiting.status).not.toHaveProperty("status");
      expect(waiting.status?.observedGeneration).toBe(waiting.metadata.generation);
    }
    await harness.create(resource("Service", "pets", { version: "1.0.0", openapi: { inline: sampleOpenApi() } }));
    const service = await harness.waitReady("Service", "pets");
    for (const { kind, collection } of artifacts) {
      const ready = await harness.waitReady(kind, `late-${kind.toLowerCase()}`);
      expect(ready.status?.observedGeneration, kind).toBe(1);
      const records = (await harness.records(collection)).filter((r) => r.name === `late-${kind.toLowerCase()}`);
      expect(records, kind).toEqual([expect.objectContaining({ id: ready.status?.id, serviceId: service.status?.id })]);
    }
  });

  it("report the new generation once a spec change reached their record", async () => {
    const harness = testHarness();
    await harness.create(resource("Service", "shop", { version: "1.0.0", openapi: { inline: sampleOpenApi() } }));
    await harness.create(
      resource("Prompts", "greetings", {
        serviceRef: { name: "shop" },
        prompts: [{ name: "hello", messages: [{ role: "user", text: "Hello" }] }],
      }),
    );
    const ready = await harness.waitReady("Prompts", "greetings");
    const patched = await patchResource(harness.env.custom, "Prompts", harness.namespace, "greetings", [
      { op: "replace", path: "/spec/prompts/0/messages/0/text", value: "Good morning" },
    ]);
    expect(patched.metadata.generation).toBe(2);
    await waitFor("Prompts greetings at generation 2", async () => {
      const object = await harness.get("Prompts", "greetings");
      return object?.status?.observedGeneration === 2 && object.status.state === "READY" ? true : undefined;
    });
    const record = await harness.recordNamed("/prompts", "greetings");
    expect(record).toMatchObject({ id: ready.status?.id });
    expect(JSON.stringify(record?.prompts)).toContain("Good morning");
  });
});
