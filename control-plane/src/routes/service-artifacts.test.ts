/**
 * The CustomTools, Resources and Prompts routes, on PGlite and on PostgreSQL: lists attached to
 * a Service, their items' names unique, their Service one of the organization's.
 */
import { describe, expect, it } from "vitest";
import { createPetstore, DATABASE_KINDS, useIsolatedControlPlane } from "../testing.ts";

describe.each(DATABASE_KINDS)("service artifacts on %s", (kind) => {
  let serviceId: string;
  const controlPlane = useIsolatedControlPlane(kind, async (cp) => {
    serviceId = await createPetstore(cp.admin);
  });

  it("attaches custom tools, resources and prompts to a service", async () => {
    const admin = controlPlane().admin;
    const tools = await admin.call("POST", "/api/v1/custom-tools", {
      name: "extra-tools",
      serviceId,
      tools: [
        { name: "mark_sold", description: "Marks a pet sold", request: { method: "PATCH", path: "/pets/{{petId}}" } },
      ],
    });
    expect(tools.status).toBe(201);
    const resources = await admin.call("POST", "/api/v1/resources", {
      name: "docs",
      serviceId,
      resources: [{ uri: "docs://policy", name: "policy", text: "Adults only." }],
    });
    expect(resources.status).toBe(201);
    const prompts = await admin.call("POST", "/api/v1/prompts", {
      name: "prompts",
      serviceId,
      prompts: [{ name: "hello", messages: [{ role: "user", text: "Hello {{name}}" }] }],
    });
    expect(prompts.status).toBe(201);
    expect((await admin.call("GET", "/api/v1/prompts")).body.items.map((p: { name: string }) => p.name)).toEqual([
      "prompts",
    ]);

    const duplicate = await admin.call("POST", "/api/v1/custom-tools", {
      name: "dupes",
      serviceId,
      tools: [
        { name: "a", description: "x", request: { method: "GET", path: "/a" } },
        { name: "a", description: "y", request: { method: "GET", path: "/b" } },
      ],
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.errors[0].field).toBe("body.tools.1");
    const noService = await admin.call("POST", "/api/v1/resources", {
      name: "orphan",
      serviceId: "00000000-0000-4000-8000-000000000000",
      resources: [],
    });
    expect(noService.status).toBe(422);
  });

  it("stores prompts with image, audio and embedded-resource messages, and refuses bad ones keeping the stored record", async () => {
    const admin = controlPlane().admin;
    const pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
    const messages = [
      { role: "user", image: { mimeType: "image/png", data: pixel } },
      { role: "assistant", audio: { mimeType: "audio/wav", data: "UklGRg==" } },
      { role: "user", resource: { uri: "{{doc}}", mimeType: "text/plain", text: "About {{doc}}" } },
      { role: "user", resource: { uri: "docs://logo", blob: pixel } },
    ];
    const created = await admin.call("POST", "/api/v1/prompts", {
      name: "rich",
      serviceId,
      prompts: [{ name: "look", arguments: [{ name: "doc", values: ["docs://a", "docs://b"] }], messages }],
    });
    expect(created.status).toBe(201);
    expect(created.body.prompts[0].messages).toEqual(messages);

    const refusedWith = async (message: Record<string, unknown>) => {
      const answer = await admin.call("PUT", `/api/v1/prompts/${created.body.id}`, {
        name: "rich",
        serviceId,
        prompts: [{ name: "look", messages: [message] }],
      });
      expect(answer.status).toBe(400);
      return answer.body.errors.map((e: { field: string; message: string }) => `${e.field}: ${e.message}`);
    };
    expect(await refusedWith({ role: "user", image: { mimeType: "image/png", data: "a picture" } })).toEqual([
      "body.prompts.0.messages.0.image.data: must be base64 (standard alphabet, padded)",
    ]);
    expect(await refusedWith({ role: "user", image: { mimeType: "text/plain", data: pixel } })).toEqual([
      "body.prompts.0.messages.0.image.mimeType: must be an image/* type",
    ]);
    expect(
      (await refusedWith({ role: "user", audio: { mimeType: "audio/wav", data: "A".repeat(1_048_580) } }))[0],
    ).toMatch(/^body\.prompts\.0\.messages\.0\.audio\.data: .*1048576/);
    expect(await refusedWith({ role: "user", text: "Hi", image: { mimeType: "image/png", data: pixel } })).toEqual([
      "body.prompts.0.messages.0: exactly one of text, image, audio, resource must be set",
    ]);
    expect(await refusedWith({ role: "user", resource: { uri: "relative/path", text: "x" } })).toEqual([
      "body.prompts.0.messages.0.resource.uri: must be an absolute URI or start with {{argument}}",
    ]);
    expect(await refusedWith({ role: "user", resource: { uri: "docs://x" } })).toEqual([
      "body.prompts.0.messages.0.resource: exactly one of text, blob must be set",
    ]);
    const stored = await admin.call("GET", `/api/v1/prompts/${created.body.id}`);
    expect(stored.body.prompts[0].messages).toEqual(messages);
  });
});
