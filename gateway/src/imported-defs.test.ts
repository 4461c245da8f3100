/**
 * End to end: a document whose schemas refer to each other eight times per level (the one that
 * froze the control plane, issue 11) is imported, published, streamed to a gateway, and served:
 * its tool lists with `$defs`, and arguments are validated through them.
 */

import { referenceChain } from "@atrium/control-plane/testing";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import type { Gateway } from "./gateway.ts";
import { type Stack, useStackWithGateway, waitFor } from "./testing.ts";

describe("a document of shared schemas, imported and served", () => {
  let stack: Stack;
  let gateway: Gateway;
  let client: Client;

  useStackWithGateway(async (running) => {
    ({ stack, gateway } = running);
    const chain = await stack.expose("chain", { openapi: referenceChain(8), plan: { apiKey: true } });
    await waitFor(() => gateway.registry.size > 1, "the gateway serves the new exposition");
    client = new Client({ name: "defs-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp/${chain.expositionId}`), {
        requestInit: { headers: { "x-atrium-key": chain.apiKey as string } },
      }),
    );
  });
  // Runs before the stack closes (after hooks run in reverse order).
  afterAll(async () => {
    await client?.close();
  });

  it("lists the tool with the shared schemas once each, in $defs", async () => {
    const { tools } = await client.listTools();
    const [tool] = tools;
    expect(tool?.name).toBe("x");
    expect(Object.keys((tool?.inputSchema.$defs ?? {}) as object).sort()).toEqual([
      "S1",
      "S2",
      "S3",
      "S4",
      "S5",
      "S6",
      "S7",
    ]);
    expect(JSON.stringify(tool).length).toBeLessThan(10_000);
  });

  it("validates arguments through the $defs before calling the backend", async () => {
    const deepWrong = { body: { p3: { p1: { p4: { p0: { p2: { p7: { p5: { p6: 42 } } } } } } } } };
    const refused = await client.callTool({ name: "x", arguments: deepWrong });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("body.p3.p1.p4.p0.p2.p7.p5.p6: must be string");
    const deepRight = { body: { p3: { p1: { p4: { p0: { p2: { p7: { p5: { p6: "leaf" } } } } } } } } };
    const called = await client.callTool({ name: "x", arguments: deepRight });
    expect(JSON.stringify(called.content)).not.toContain("must be");
  });
});
