/**
 * Prompts with image, audio and embedded-resource messages, stored through the REST API and read
 * by the official clients: v1 in a 2025-11-25 session, v2 pinned to 2026-07-28. Both clients
 * check each result against their own schema of the protocol, so a malformed content block fails.
 */
import { describe, expect, it } from "vitest";
import type { Gateway } from "../gateway.ts";
import { connectLegacyClient, connectModernClient, PNG, type Stack, useStackWithGateway, waitFor } from "../testing.ts";

let stack: Stack;
let gateway: Gateway;
const pixel = PNG.toString("base64");
const wav = Buffer.from("RIFF....WAVEfmt ").toString("base64");

useStackWithGateway(async (started) => {
  ({ stack, gateway } = started);
  const created = await stack.controlPlane.admin.call("POST", "/api/v1/prompts", {
    name: "rich",
    serviceId: stack.serviceId,
    prompts: [
      {
        name: "show",
        arguments: [{ name: "doc", required: true }],
        messages: [
          { role: "user", image: { mimeType: "image/png", data: pixel } },
          { role: "assistant", audio: { mimeType: "audio/wav", data: wav } },
          { role: "user", resource: { uri: "{{doc}}", mimeType: "text/plain", text: "The text of {{doc}}" } },
          { role: "user", resource: { uri: "docs://logo", mimeType: "image/png", blob: pixel } },
          { role: "user", text: "Compare {{doc}} with the picture." },
        ],
      },
    ],
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  await waitFor(() => (gateway.registry.byId(stack.expositionId)?.exposition.prompts.length ?? 0) > 0, "the prompts");
});

const expected = (doc: string) => [
  { role: "user", content: { type: "image", mimeType: "image/png", data: pixel } },
  { role: "assistant", content: { type: "audio", mimeType: "audio/wav", data: wav } },
  {
    role: "user",
    content: { type: "resource", resource: { uri: doc, mimeType: "text/plain", text: `The text of ${doc}` } },
  },
  { role: "user", content: { type: "resource", resource: { uri: "docs://logo", mimeType: "image/png", blob: pixel } } },
  { role: "user", content: { type: "text", text: `Compare ${doc} with the picture.` } },
];

describe("prompts with rich content", () => {
  it("are served to the v1 client in a 2025-11-25 session", async () => {
    const client = await connectLegacyClient(`${gateway.url}${stack.mcpPath}`, stack.apiKey);
    try {
      const prompt = await client.getPrompt({ name: "show", arguments: { doc: "docs://pets/7" } });
      expect(prompt.messages).toEqual(expected("docs://pets/7"));
      // An argument that leaves the embedded resource's URI relative is the caller's mistake.
      await expect(client.getPrompt({ name: "show", arguments: { doc: "pets/7" } })).rejects.toThrow(
        /embedded resource's URI must be absolute/,
      );
    } finally {
      await client.close();
    }
  });

  it("are served to the v2 client at 2026-07-28", async () => {
    const client = await connectModernClient(`${gateway.url}${stack.mcpPath}`, stack.apiKey);
    try {
      const prompt = await client.getPrompt({ name: "show", arguments: { doc: "file:///notes.txt" } });
      expect(prompt.messages).toEqual(expected("file:///notes.txt"));
      await expect(client.getPrompt({ name: "show", arguments: { doc: "" } })).rejects.toThrow(/doc/);
    } finally {
      await client.close();
    }
  });
});
