import { describe, expect, it } from "vitest";
import { selectsGateway } from "./gateway-group.ts";

describe("selectsGateway", () => {
  const gateway = { env: "dev", "atrium.dev/zone": "eu-1" };

  it("selects every gateway with an empty selector", () => {
    expect(selectsGateway({}, gateway)).toBe(true);
    expect(selectsGateway({}, {})).toBe(true);
  });

  it("needs every label with its value", () => {
    expect(selectsGateway({ labels: { env: "dev" } }, gateway)).toBe(true);
    expect(selectsGateway({ labels: { env: "prod" } }, gateway)).toBe(false);
    expect(selectsGateway({ labels: { env: "dev", tier: "edge" } }, gateway)).toBe(false);
  });

  it("applies In, NotIn, Exists and DoesNotExist", () => {
    const zone = "atrium.dev/zone";
    expect(
      selectsGateway({ matchExpressions: [{ key: zone, operator: "In", values: ["eu-1", "eu-2"] }] }, gateway),
    ).toBe(true);
    expect(selectsGateway({ matchExpressions: [{ key: zone, operator: "In", values: ["us-1"] }] }, gateway)).toBe(
      false,
    );
    expect(selectsGateway({ matchExpressions: [{ key: zone, operator: "NotIn", values: ["eu-1"] }] }, gateway)).toBe(
      false,
    );
    expect(selectsGateway({ matchExpressions: [{ key: "tier", operator: "NotIn", values: ["x"] }] }, gateway)).toBe(
      true,
    );
    expect(selectsGateway({ matchExpressions: [{ key: "env", operator: "Exists" }] }, gateway)).toBe(true);
    expect(selectsGateway({ matchExpressions: [{ key: "env", operator: "DoesNotExist" }] }, gateway)).toBe(false);
  });
});
