/**
 * The control plane's refusal of deeply nested request bodies (a 400 naming the body, where the
 * validators used to overflow their stack and answer 500).
 */
import { describe, expect, it } from "vitest";
import { startTestControlPlane } from "./testing.ts";

const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

describe("control-plane request bodies", () => {
  it("refuses a body nested 5,000 levels deep with a 400 naming it, and takes a reasonably deep one", async () => {
    const controlPlane = await startTestControlPlane("pglite");
    try {
      const openapi = {
        openapi: "3.0.3",
        info: { title: "t", version: "1" },
        paths: { "/a": { get: { operationId: "a", responses: { "200": { description: "ok" } } } } },
      };
      const service = await controlPlane.admin.call("POST", "/api/v1/services", {
        name: "deep",
        version: "1",
        openapi: { inline: JSON.stringify(openapi) },
      });
      const post = (name: string, levels: number) =>
        fetch(`${controlPlane.url}/api/v1/custom-tools`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${controlPlane.admin.token}` },
          body: `{"name":"${name}","serviceId":"${service.body.id}","tools":[{"name":"t","description":"d","inputSchema":${nested(levels)},"request":{"method":"GET","path":"/"}}]}`,
        });
      const refused = await post("too-deep", 5_000);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        errors: [{ field: "body", message: "nests objects or arrays deeper than 128 levels" }],
      });
      expect((await post("deep-enough", 100)).status).toBe(201);
    } finally {
      await controlPlane.close();
    }
  });
});
