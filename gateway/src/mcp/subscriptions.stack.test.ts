/**
 * Change notifications through the official clients, driven by real changes to the control
 * plane's records (REST API → change stream → gateway): the v1 client in a 2025-11-25 session
 * (its GET stream, resources/subscribe and unsubscribe), the v2 client at 2026-07-28
 * (subscriptions/listen with a filter). Notifications arrive in order on one stream, so a later
 * one shows that an earlier one was not sent.
 */
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import type { Gateway } from "../gateway.ts";
import { managementUrl } from "../server.ts";
import {
  connectLegacyClient,
  connectModernClient,
  modernRequest,
  type Stack,
  useStackWithGateway,
  waitFor,
} from "../testing.ts";

let stack: Stack;
let gateway: Gateway;
let resourcesId: string;
let promptsId: string;

useStackWithGateway(async (started) => {
  ({ stack, gateway } = started);
  const { admin } = stack.controlPlane;
  resourcesId = (await admin.call("POST", "/api/v1/resources", resourcesBody("Adults only."))).body.id;
  promptsId = (await admin.call("POST", "/api/v1/prompts", promptsBody("Hello"))).body.id;
  await waitFor(
    () => (gateway.registry.byId(stack.expositionId)?.exposition.prompts.length ?? 0) > 0,
    "the resources and prompts",
  );
});

const resourcesBody = (policy: string, extra: Record<string, unknown>[] = []) => ({
  name: "docs",
  serviceId: stack.serviceId,
  resources: [{ uri: "docs://policy", name: "policy", mimeType: "text/plain", text: policy }, ...extra],
});
const promptsBody = (text: string) => ({
  name: "prompts",
  serviceId: stack.serviceId,
  prompts: [{ name: "greet", messages: [{ role: "user", text }] }],
});
const put = (path: string, body: unknown) => stack.controlPlane.admin.call("PUT", path, body);
let edits = 0;
const editPolicy = () => put(`/api/v1/resources/${resourcesId}`, resourcesBody(`Adults only (${++edits}).`));
const editPrompt = () => put(`/api/v1/prompts/${promptsId}`, promptsBody(`Hello (${++edits})`));

/** Headers of a 2025-11-25 request with the plan's `key`, in `session` when given. */
const legacyHeaders = (key: string, session?: string) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
  "x-atrium-key": key,
  ...(session ? { "mcp-session-id": session } : {}),
});

/** Opens a 2025-11-25 session at `url` with a plain initialize; its id. */
async function initializeSession(url: string, key: string): Promise<string> {
  const opened = await request(url, {
    method: "POST",
    headers: legacyHeaders(key),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
  await opened.body.dump();
  return String(opened.headers["mcp-session-id"]);
}

/** Notifications a client received, by method. */
function recorder() {
  const seen: { method: string; params?: Record<string, unknown> }[] = [];
  return {
    seen,
    record: (notification: { method: string; params?: unknown }) => {
      seen.push({ method: notification.method, params: notification.params as Record<string, unknown> });
    },
    methods: () => seen.map((n) => n.method),
    waitFor: (method: string, count = 1) =>
      waitFor(() => seen.filter((n) => n.method === method).length >= count, `${count} × ${method}`),
  };
}

describe("change notifications", () => {
  it("reach a 2025-11-25 session's GET stream: list changes, and updates of subscribed resources only", async () => {
    const client = await connectLegacyClient(`${gateway.url}${stack.mcpPath}`, stack.apiKey);
    const got = recorder();
    for (const schema of [
      ResourceUpdatedNotificationSchema,
      ResourceListChangedNotificationSchema,
      PromptListChangedNotificationSchema,
      ToolListChangedNotificationSchema,
    ])
      client.setNotificationHandler(schema, got.record);
    try {
      expect(client.getServerCapabilities()).toMatchObject({
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        tools: { listChanged: true },
      });
      // The client opens its GET stream in the background: edit until the stream hears of it.
      await waitFor(async () => {
        await editPrompt();
        await new Promise((resolve) => setTimeout(resolve, 200));
        return got.methods().includes("notifications/prompts/list_changed");
      }, "the session's stream to be open");

      await client.subscribeResource({ uri: "docs://policy" });
      await editPolicy();
      await got.waitFor("notifications/resources/updated");
      expect(got.seen.find((n) => n.method === "notifications/resources/updated")?.params).toEqual({
        uri: "docs://policy",
      });
      // Only the text changed: the list is the same.
      expect(got.methods()).not.toContain("notifications/resources/list_changed");

      await put(
        `/api/v1/resources/${resourcesId}`,
        resourcesBody("Adults only.", [{ uri: "docs://faq", name: "faq", text: "Ask." }]),
      );
      await got.waitFor("notifications/resources/list_changed");

      const created = await stack.controlPlane.admin.call("POST", "/api/v1/custom-tools", {
        name: "extra",
        serviceId: stack.serviceId,
        tools: [{ name: "mark_sold", description: "Marks a pet sold", request: { method: "PATCH", path: "/pets/1" } }],
      });
      expect(created.status).toBe(201);
      await got.waitFor("notifications/tools/list_changed");

      await client.unsubscribeResource({ uri: "docs://policy" });
      const updates = got.methods().filter((m) => m === "notifications/resources/updated").length;
      const promptChanges = got.methods().filter((m) => m === "notifications/prompts/list_changed").length;
      await editPolicy();
      await editPrompt();
      await got.waitFor("notifications/prompts/list_changed", promptChanges + 1);
      expect(got.methods().filter((m) => m === "notifications/resources/updated")).toHaveLength(updates);

      await expect(client.subscribeResource({ uri: "docs://nothing" })).rejects.toThrow(/Resource not found/);
    } finally {
      await client.close();
    }
  });

  it("reach a 2026-07-28 listen stream: acknowledged, filtered, each tagged with the listen request's id", async () => {
    const client = await connectModernClient(`${gateway.url}${stack.mcpPath}`, stack.apiKey);
    const got = recorder();
    for (const method of [
      "notifications/resources/updated",
      "notifications/prompts/list_changed",
      "notifications/tools/list_changed",
    ] as const)
      client.setNotificationHandler(method, got.record);
    try {
      expect(client.getServerCapabilities()).toMatchObject({ resources: { subscribe: true, listChanged: true } });
      const subscription = await client.listen({ resourceSubscriptions: ["docs://policy"], toolsListChanged: true });
      expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ["docs://policy"], toolsListChanged: true });
      await editPrompt(); // not asked for
      await editPolicy();
      await got.waitFor("notifications/resources/updated");
      expect(got.methods()).toEqual(["notifications/resources/updated"]);
      expect(got.seen[0]?.params).toMatchObject({
        uri: "docs://policy",
        _meta: { "io.modelcontextprotocol/subscriptionId": expect.anything() },
      });
      await subscription.close();
    } finally {
      await client.close();
    }
  });

  it("keeps notifying a listen stream that also subscribed to URIs naming nothing (a malformed %-escape, a lone surrogate)", async () => {
    const template = { name: "pet", uriTemplate: "pets://pet/{id}", fromBackend: { path: "/pets/{{id}}" } };
    await put(`/api/v1/resources/${resourcesId}`, { ...resourcesBody("Adults only."), resourceTemplates: [template] });
    await waitFor(
      () => (gateway.registry.byId(stack.expositionId)?.exposition.resourceTemplates.length ?? 0) > 0,
      "the template",
    );
    const client = await connectModernClient(`${gateway.url}${stack.mcpPath}`, stack.apiKey);
    const got = recorder();
    client.setNotificationHandler("notifications/resources/updated", got.record);
    try {
      await expect(client.readResource({ uri: "pets://pet/%E0" })).rejects.toThrow(/Resource not found/);
      const subscription = await client.listen({
        resourceSubscriptions: ["pets://pet/%E0", "pets://pet/\ud800", "docs://policy"],
      });
      // Resolving the first two threw out of the change's notifications, before docs://policy's.
      await editPolicy();
      await got.waitFor("notifications/resources/updated");
      expect(got.seen.map((n) => n.params?.uri)).toEqual(["docs://policy"]);
      await subscription.close();
    } finally {
      await client.close();
      await put(`/api/v1/resources/${resourcesId}`, resourcesBody("Adults only."));
    }
  });

  it("polls a subscribed backend resource (fromBackend.pollSeconds) and reports a change of its content", async () => {
    const { admin } = stack.controlPlane;
    const created = await admin.call("POST", "/api/v1/resources", {
      name: "watched",
      serviceId: stack.serviceId,
      resources: [
        {
          uri: "pets://all",
          name: "all-pets",
          mimeType: "application/json",
          fromBackend: { path: "/pets", pollSeconds: 1 },
        },
      ],
    });
    expect(created.status).toBe(201);
    await waitFor(
      () => !!gateway.registry.byId(stack.expositionId)?.exposition.resources.some((r) => r.uri === "pets://all"),
      "the polled resource",
    );
    const client = await connectModernClient(`${gateway.url}${stack.mcpPath}`, stack.apiKey);
    const got = recorder();
    client.setNotificationHandler("notifications/resources/updated", got.record);
    try {
      const subscription = await client.listen({ resourceSubscriptions: ["pets://all"] });
      // The first read is the baseline, and the ones after find the same pets: no notification.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(got.seen).toEqual([]);
      const added = await request(`${stack.backend.url}/api/pets`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Rex" }),
      });
      await added.body.dump();
      await got.waitFor("notifications/resources/updated");
      expect(got.seen[0]?.params).toMatchObject({ uri: "pets://all" });
      await subscription.close();
    } finally {
      await client.close();
      await admin.call("DELETE", `/api/v1/resources/${created.body.id}`);
    }
  });

  it("answers an open listen request when the gateway shuts down, and closes its stream", async () => {
    const other = await stack.startGateway();
    const listen = modernRequest(
      "subscriptions/listen",
      { notifications: { toolsListChanged: true } },
      {
        id: 7,
        headers: { "x-atrium-key": stack.apiKey },
      },
    );
    const response = await request(`${other.url}${stack.mcpPath}`, listen);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/event-stream");
    const closing = other.close();
    const events = (await response.body.text())
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)));
    await closing;
    expect(events.map((event) => event.method ?? "answer")).toEqual([
      "notifications/subscriptions/acknowledged",
      "answer",
    ]);
    expect(events[1]).toEqual({
      jsonrpc: "2.0",
      id: 7,
      result: { _meta: { "io.modelcontextprotocol/subscriptionId": 7 }, resultType: "complete" },
    });
  });

  it("opens a 2025 session's GET stream at once, and ends it when the session is ended on another replica", async () => {
    const other = await stack.startGateway();
    const headers = (session?: string) => legacyHeaders(stack.apiKey, session);
    const url = `${gateway.url}${stack.mcpPath}`;
    const session = await initializeSession(url, stack.apiKey);
    const asked = performance.now();
    const stream = await request(url, { headers: { ...headers(session), accept: "text/event-stream" } });
    expect(stream.statusCode).toBe(200);
    // Its headers come at once, not with the first keep-alive 25 s later.
    expect(performance.now() - asked).toBeLessThan(5_000);
    let received = "";
    let closed = false;
    const reading = (async () => {
      for await (const chunk of stream.body) received += chunk;
      closed = true;
    })();

    const ended = await request(`${other.url}${stack.mcpPath}`, { method: "DELETE", headers: headers(session) });
    await ended.body.dump();
    expect(ended.statusCode).toBe(200);
    // The change stream brings the end to this replica: its calls in the session are refused.
    await waitFor(async () => {
      const ping = await request(url, {
        method: "POST",
        headers: headers(session),
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
      await ping.body.dump();
      return ping.statusCode === 404;
    }, "the ended session refused here");
    await editPrompt();
    await waitFor(() => closed, "the ended session's stream closed");
    await reading;
    expect(received).not.toContain("list_changed");
  });

  it("refuses a malformed listen filter, and a GET without a session, in words", async () => {
    const url = `${gateway.url}${stack.mcpPath}`;
    const bad = await request(
      url,
      modernRequest(
        "subscriptions/listen",
        { notifications: { toolsListChanged: "yes" } },
        {
          headers: { "x-atrium-key": stack.apiKey },
        },
      ),
    );
    expect(bad.statusCode).toBe(400);
    expect(((await bad.body.json()) as { error: { message: string } }).error.message).toBe(
      "Invalid params: notifications.toolsListChanged must be a boolean",
    );
    const get = await request(url, { headers: { accept: "text/event-stream", "x-atrium-key": stack.apiKey } });
    expect(get.statusCode).toBe(405);
    await get.body.dump();

    const listen = modernRequest(
      "subscriptions/listen",
      { notifications: {} },
      { headers: { "x-atrium-key": stack.apiKey } },
    );
    const counted = async () => {
      const text = await (await request(`${managementUrl(gateway.app)}/q/metrics`)).body.text();
      const series = `atrium_mcp_requests_total{exposition="${stack.expositionId}",method="subscriptions/listen",`;
      return text.split("\n").filter((line) => line.startsWith(series));
    };
    const before = await counted();
    const json = await request(url, { ...listen, headers: { ...listen.headers, accept: "application/json" } });
    expect(json.statusCode).toBe(406);
    await json.body.dump();
    // Counted once, as refused: not also as a 200.
    const after = await counted();
    const count = (lines: string[], status: string) =>
      Number(lines.find((line) => line.includes(`status="${status}"`))?.split(" ")[1] ?? 0);
    expect(count(after, "406") - count(before, "406")).toBe(1);
    expect(count(after, "200")).toBe(count(before, "200"));
  });

  it("ends the streams of an Exposition whose API key is renewed: the client reconnects with the new key", async () => {
    const exposed = await stack.expose("renewed", { plan: { apiKey: true } });
    await waitFor(() => gateway.registry.byId(exposed.expositionId) !== undefined, "the new Exposition");
    const url = `${gateway.url}/mcp/${exposed.expositionId}`;
    const key = exposed.apiKey as string;
    const listen = (key: string) =>
      request(
        url,
        modernRequest(
          "subscriptions/listen",
          { notifications: { toolsListChanged: true } },
          { headers: { "x-atrium-key": key } },
        ),
      );
    const listening = await listen(key);
    expect(listening.statusCode).toBe(200);
    const session = await initializeSession(url, key);
    const sessionStream = await request(url, {
      headers: { ...legacyHeaders(key, session), accept: "text/event-stream" },
    });
    expect(sessionStream.statusCode).toBe(200);

    const renewed = await stack.controlPlane.admin.call(
      "POST",
      `/api/v1/configuration-plans/${exposed.planId}/renew-api-key`,
    );
    expect(renewed.status).toBe(200);
    const [listened] = await Promise.all([listening.body.text(), sessionStream.body.dump()]);
    // Ended without an answer to the listen request: only its acknowledgement was sent.
    expect(listened).toContain("notifications/subscriptions/acknowledged");
    expect(listened).not.toContain('"result"');
    const again = await listen(renewed.body.apiKey);
    expect(again.statusCode).toBe(200);
    again.body.destroy();
  });
});
