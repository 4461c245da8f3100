/**
 * The Exposition reconciler on a real API server and control plane: IN_PROGRESS, naming what it
 * waits for, until its plan and group exist; then READY, linked to them.
 */
import { describe, expect, it } from "vitest";
import { applyPetstore, resource, statusOf, useOperatorHarness } from "../../testing.ts";

const testHarness = useOperatorHarness("expositions", applyPetstore);

describe("Exposition", () => {
  it("keeps an Exposition IN_PROGRESS, naming what it waits for, until its dependencies exist", async () => {
    const harness = testHarness();
    await harness.create(
      resource("Exposition", "late", {
        configurationPlanRef: { name: "late-plan" },
        gatewayGroupRef: { name: "late-group" },
      }),
    );
    await harness.waitState(
      "Exposition",
      "late",
      "IN_PROGRESS",
      /ConfigurationPlan late-plan.*GatewayGroup late-group/,
    );

    await harness.create(resource("GatewayGroup", "late-group", { labels: { tier: "late" } }));
    const waiting = await harness.waitState(
      "Exposition",
      "late",
      "IN_PROGRESS",
      /^waiting for ConfigurationPlan late-plan \(not found\)$/,
    );
    expect(statusOf(waiting).id).toBeUndefined();

    await harness.create(
      resource("ConfigurationPlan", "late-plan", {
        serviceRef: { name: "petstore" },
        backendEndpoint: "https://late.example.com",
      }),
    );
    const ready = await harness.waitReady("Exposition", "late");
    const plan = await harness.recordNamed("/configuration-plans", "late-plan");
    const group = await harness.recordNamed("/gateway-groups", "late-group");
    expect(await harness.recordNamed("/expositions", "late")).toMatchObject({
      id: ready.status?.id,
      configurationPlanId: plan?.id,
      gatewayGroupId: group?.id,
    });
    expect(plan).toMatchObject({ hasApiKey: false });
  });
});
