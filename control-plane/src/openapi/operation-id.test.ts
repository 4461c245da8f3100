import { describe, expect, it } from "vitest";
import { assignOperationIds, synthesizeOperationId } from "./operation-id.ts";

describe("synthesizeOperationId", () => {
  it.each([
    ["GET", "/pets/{petId}", "get_pets_petId"],
    ["post", "/pets", "post_pets"],
    ["DELETE", "/", "delete_root"],
    ["GET", "/v1/users.json", "get_v1_users_json"],
    ["PATCH", "/a-b/{c-d}/", "patch_a_b_c_d"],
  ])("%s %s → %s", (method, path, expected) => {
    expect(synthesizeOperationId(method, path)).toBe(expected);
  });
});

describe("assignOperationIds", () => {
  it("keeps declared ids and suffixes synthesized ones that are taken", () => {
    expect(
      assignOperationIds([
        { method: "GET", path: "/a/{b}", declaredId: undefined },
        { method: "GET", path: "/a/b", declaredId: undefined },
        { method: "POST", path: "/x", declaredId: "get_a_b_2" },
      ]),
    ).toEqual({ ids: ["get_a_b", "get_a_b_3", "get_a_b_2"] });
  });

  it("returns the first conflict between declared ids", () => {
    expect(
      assignOperationIds([
        { method: "GET", path: "/a", declaredId: "x" },
        { method: "GET", path: "/b", declaredId: undefined },
        { method: "POST", path: "/c", declaredId: "x" },
      ]),
    ).toEqual({ conflict: { operationId: "x", first: 0, second: 2 } });
  });
});
