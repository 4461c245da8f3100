/**
 * `atrium info` against a real control plane: both versions, the URL and the organization.
 */
import type { Stack } from "@atrium/gateway/testing";
import { describe, expect, it } from "vitest";
import { json, ok, row, withCliStack } from "../testing.ts";

let stack: Stack;
const atrium = withCliStack((cli) => ({ stack } = cli));

describe("info", () => {
  it("info shows both versions, the URL and the organization", async () => {
    const table = ok(await atrium(["info"]));
    expect(row(table, "CONTROL PLANE VERSION")).toBe("0.1.0");
    expect(row(table, "CLI VERSION")).toBe("0.1.0");
    expect(row(table, "CONTROL PLANE URL")).toBe(stack.controlPlane.url);
    expect(row(table, "ORGANIZATION")).toBe("default");
    expect(json(await atrium(["info", "--output", "json"]))).toMatchObject({
      controlPlaneVersion: "0.1.0",
      cliVersion: "0.1.0",
      controlPlaneUrl: stack.controlPlane.url,
      organization: "default",
      username: "admin",
    });
    expect(ok(await atrium(["info", "--output", "yaml"])).stdout).toContain("controlPlaneVersion: 0.1.0");
  });
});
