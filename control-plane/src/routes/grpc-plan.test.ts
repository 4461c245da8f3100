import type { ServiceKind } from "@atrium/crds";
import { describe, expect, it } from "vitest";
import { grpcPlanProblem } from "./grpc-plan.ts";
import { unfitEndpoint } from "./service-kinds.ts";

const endpointProblem = (kind: string, endpoint: string) =>
  unfitEndpoint(kind as ServiceKind, endpoint, "body.backendEndpoint", "why");

describe("a plan on a gRPC Service", () => {
  it("is published at grpc:// or grpcs://, never at http(s); an http(s) Service never at grpc(s)", () => {
    expect(endpointProblem("grpc", "grpc://127.0.0.1:50051")).toBeUndefined();
    expect(endpointProblem("grpc", "grpcs://pets.internal:443")).toBeUndefined();
    expect(endpointProblem("grpc", "https://pets.internal")?.message).toBe(
      "why: the backendEndpoint of a grpc Service must start with grpc:// or grpcs://, not https://",
    );
    expect(endpointProblem("openapi", "grpcs://pets.internal:443")).toMatchObject({ code: "BACKEND_ENDPOINT_SCHEME" });
  });

  it("takes grpc settings, which a plan on any other kind is refused", () => {
    expect(grpcPlanProblem("grpc", { grpc: { maxStreamMessages: 5 } }, "s1")).toBeUndefined();
    const refused = grpcPlanProblem("openapi", { grpc: { maxStreamMessages: 5 } }, "s1");
    expect(refused).toMatchObject({ status: 422, code: "GRPC_SETTINGS_NOT_APPLICABLE" });
    expect(refused?.message).toMatch(/only a plan on a grpc Service takes grpc settings/);
  });

  it("refuses a backend secret in the query, which a gRPC call has not", () => {
    expect(grpcPlanProblem("grpc", { backendSecret: { in: "query" } }, "s1")).toMatchObject({
      code: "BACKEND_SECRET_PLACEMENT",
    });
    expect(grpcPlanProblem("grpc", { backendSecret: { in: "header" } }, "s1")).toBeUndefined();
    expect(grpcPlanProblem("openapi", { backendSecret: { in: "query" } }, "s1")).toBeUndefined();
  });
});
