/**
 * The metric catalogue in docs/ is what the code exports now, and lists the families the
 * dashboards and alerts rely on.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { metricCatalogue, seriesNames } from "./catalogue.ts";
import { catalogueFiles } from "./files.ts";

describe("metric catalogue", () => {
  it("docs/metrics.md and docs/metrics.json are up to date with the code (run node hack/metrics/src/generate.ts)", async () => {
    for (const [path, content] of await catalogueFiles()) expect(readFileSync(path, "utf8"), path).toBe(content);
  });

  it("describes each component's families with their type and labels, histograms with their series", async () => {
    const catalogue = await metricCatalogue();
    const byName = new Map(catalogue.map((entry) => [entry.name, entry]));
    expect(byName.get("atrium_tool_calls_total")).toMatchObject({
      component: "gateway",
      type: "counter",
      labels: ["exposition", "tool", "outcome"],
    });
    expect(byName.get("atrium_auth_decisions_total")?.labels).toEqual(["exposition", "mode", "outcome", "reason"]);
    expect(byName.get("atrium_gateway_configuration_staleness_seconds")?.type).toBe("gauge");
    expect(byName.get("atrium_backend_circuit_state")?.labels).toEqual(["exposition", "state"]);
    expect(byName.get("atrium_control_plane_http_requests_total")?.labels).toEqual(["method", "route", "status"]);
    expect(byName.get("atrium_operator_reconciles_total")?.component).toBe("operator");
    expect(byName.get("atrium_webhook_reviews_total")?.component).toBe("webhook");
    const series = seriesNames(catalogue);
    expect(series.has("atrium_gateway_change_lag_seconds_bucket")).toBe(true);
    expect(series.has("atrium_gateway_change_lag_seconds")).toBe(false);
    // One entry per name: no two components export the same family.
    expect(byName.size).toBe(catalogue.length);
  });
});
