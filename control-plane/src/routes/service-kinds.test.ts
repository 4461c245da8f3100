import type { ServiceKind } from "@atrium/crds";
import { describe, expect, it } from "vitest";
import { unfitEndpoint } from "./service-kinds.ts";

const unfitFor = (kind: string, endpoint: string) =>
  unfitEndpoint(kind as ServiceKind, endpoint, "body.backendEndpoint", "why");

describe("the backend endpoint a Service's kind is called at", () => {
  it("takes http(s) for openapi and graphql", () => {
    for (const kind of ["openapi", "graphql"]) {
      expect(unfitFor(kind, "https://api.example.com/graphql")).toBeUndefined();
      expect(unfitFor(kind, "http://127.0.0.1:8080")).toBeUndefined();
    }
  });

  it("refuses another scheme with the one expected, and a kind the gateways do not call", () => {
    const refused = unfitFor("graphql", "grpc://api.example.com:443");
    expect(refused).toMatchObject({ status: 422, code: "BACKEND_ENDPOINT_SCHEME" });
    expect(refused?.message).toBe(
      "why: the backendEndpoint of a graphql Service must start with http:// or https://, not grpc://",
    );
    expect(unfitFor("soap", "https://api.example.com")).toMatchObject({ code: "SERVICE_KIND_NOT_PUBLISHABLE" });
  });
});
