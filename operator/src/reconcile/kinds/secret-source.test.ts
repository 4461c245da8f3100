/**
 * The SecretSource reconciler on a real API server and control plane: one backend secret record
 * per referenced key, one condition per Secret, and a changed Secret value propagated to its
 * record (updated, never duplicated).
 */
import { recordSecret } from "@atrium/reliability/secrets";
import { describe, expect, it } from "vitest";
import { resource, useOperatorHarness, waitFor } from "../../testing.ts";

const testHarness = useOperatorHarness("secret-sources");

describe("SecretSource", () => {
  it("propagates a changed Secret value to the backend secret record", async () => {
    const harness = testHarness();
    const { env, namespace } = harness;
    recordSecret("Kubernetes Secret value", "first-token");
    recordSecret("Kubernetes Secret value", "rotated-token");
    await env.core.createNamespacedSecret({
      namespace,
      body: { metadata: { name: "backend" }, stringData: { token: "first-token" } },
    });
    await harness.create(
      resource("SecretSource", "credentials", { secretRefs: [{ name: "backend", keys: ["token"] }] }),
    );
    const ready = await harness.waitReady("SecretSource", "credentials");
    expect(ready.status?.conditions).toEqual([
      expect.objectContaining({ type: "secret.atrium.dev/backend", status: "True", reason: "Synced" }),
    ]);
    const record = await harness.recordNamed("/secrets", "credentials.token");
    expect(record).toBeDefined();

    await env.core.replaceNamespacedSecret({
      namespace,
      name: "backend",
      body: { metadata: { name: "backend" }, stringData: { token: "rotated-token" } },
    });
    await waitFor("the secret record updated", async () => {
      const current = await harness.recordNamed("/secrets", "credentials.token");
      return current && current.updatedAt !== record?.updatedAt ? current : undefined;
    });
    expect((await harness.records("/secrets")).filter((r) => r.name === "credentials.token")).toHaveLength(1);
  });
});
