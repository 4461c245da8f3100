/**
 * subscriptions/listen's filter, checked before a stream opens: flags are booleans (false ones
 * dropped), URIs a list of at most 100 strings (duplicates dropped); anything else is -32602.
 * A URI subscribed to, in a listen filter or a 2025 session, is at most 8,192 characters: a
 * template matches URIs of any length, and each subscription is kept.
 */
import type { CompiledExposition } from "@atrium/contract";
import Fastify, { type FastifyInstance } from "fastify";
import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ServedExposition } from "../registry.ts";
import { McpError } from "./protocol.ts";
import { compileTemplates } from "./resources.ts";
import { listenRequest, MAX_SUBSCRIBED_URI_LENGTH, MAX_SUBSCRIBED_URIS, Subscriptions } from "./subscriptions.ts";
import { invalidParamsMessage } from "./testing.ts";

function refusal(params: Record<string, unknown>): string {
  return invalidParamsMessage(() => listenRequest(params));
}

describe("listenRequest", () => {
  it("keeps the flags that are true and each URI once", () => {
    const { filter } = listenRequest({
      notifications: { toolsListChanged: true, promptsListChanged: false, resourceSubscriptions: ["a://1", "a://1"] },
    });
    expect(filter).toEqual({ toolsListChanged: true, resourceSubscriptions: ["a://1"] });
    expect(listenRequest({ notifications: {} }).filter).toEqual({});
  });

  it("refuses a filter that is not one, in words", () => {
    expect(refusal({})).toBe("Invalid params: notifications must be an object (the subscription filter)");
    expect(refusal({ notifications: [] })).toBe(
      "Invalid params: notifications must be an object (the subscription filter)",
    );
    expect(refusal({ notifications: { resourcesListChanged: 1 } })).toBe(
      "Invalid params: notifications.resourcesListChanged must be a boolean",
    );
    expect(refusal({ notifications: { resourceSubscriptions: "a://1" } })).toBe(
      "Invalid params: notifications.resourceSubscriptions must be an array of URIs",
    );
    const many = Array.from({ length: MAX_SUBSCRIBED_URIS + 1 }, (_, i) => `a://${i}`);
    expect(refusal({ notifications: { resourceSubscriptions: many } })).toBe(
      `Invalid params: notifications.resourceSubscriptions takes at most ${MAX_SUBSCRIBED_URIS} URIs`,
    );
  });
});

describe("subscribed URIs", () => {
  const long = `pets://pet/${"x".repeat(MAX_SUBSCRIBED_URI_LENGTH)}`;

  it("refuses a listen filter's URI past the length bound", () => {
    expect(refusal({ notifications: { resourceSubscriptions: ["pets://pet/1", long] } })).toBe(
      `Invalid params: notifications.resourceSubscriptions: a URI is at most ${MAX_SUBSCRIBED_URI_LENGTH} characters`,
    );
  });

  it("refuses a session's resources/subscribe past the length bound, though a template matches it", () => {
    const templates = compileTemplates([
      { uriTemplate: "pets://pet/{id}", name: "pet", fromBackend: { path: "/pets/{{id}}" } },
    ] as CompiledExposition["resourceTemplates"]);
    const served = { exposition: { resources: [] }, templates } as unknown as ServedExposition;
    const subscriptions = new Subscriptions();
    subscriptions.subscribe(served, "session", "pets://pet/1");
    // A 2025 session's error rides a 200, as its other invalid params do.
    expect(() => subscriptions.subscribe(served, "session", long)).toThrow(
      `Invalid params: uri is at most ${MAX_SUBSCRIBED_URI_LENGTH} characters`,
    );
  });
});

/**
 * Streams over a real HTTP server (fastify on 127.0.0.1, read with undici): what a change costs,
 * when the poll timer runs, the per-caller bound, and the ends of a stream whose authorization lapsed.
 */
describe("notification streams", () => {
  const version = (
    options: { text?: string; mimeType?: unknown; apiKeyHash?: string | null; oauth?: unknown; polled?: boolean } = {},
  ) =>
    ({
      exposition: {
        id: "e1",
        plan: {
          id: "p1",
          backendEndpoint: "http://127.0.0.1:9",
          apiKeyHash: options.apiKeyHash ?? null,
          oauth: options.oauth,
        },
        prompts: [],
        resourceTemplates: [],
        resources: [
          { uri: "docs://a", name: "a", text: options.text ?? "A", mimeType: options.mimeType },
          ...(options.polled
            ? [{ uri: "pets://all", name: "all", fromBackend: { path: "/pets", pollSeconds: 5 } }]
            : []),
        ],
      },
      toolset: { tools: [] },
      templates: [],
    }) as unknown as ServedExposition;

  let app: FastifyInstance;
  let subscriptions: Subscriptions;
  let served: ServedExposition;
  /** What the gateway serves now, when a test says. */
  let registry: Map<string, ServedExposition>;
  let base: string;
  beforeEach(async () => {
    registry = new Map();
    subscriptions = new Subscriptions({
      read: async () => undefined,
      latest: (id) => registry.get(id),
      maxPerCaller: 2,
    });
    served = version();
    app = Fastify();
    app.get("/listen", async (request, reply) => {
      const { caller, until } = request.query as { caller: string; until?: string };
      try {
        subscriptions.openListenStream(
          reply,
          served,
          1,
          { resourceSubscriptions: ["docs://a", "pets://all"] },
          { key: caller, ...(until ? { validUntilMs: Number(until) } : {}) },
        );
      } catch (error) {
        if (!(error instanceof McpError)) throw error;
        return reply.status(error.httpStatus).send(error.message);
      }
      return reply;
    });
    base = await app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterEach(async () => {
    subscriptions.close();
    await app.close();
  });

  /** Opens a stream; `text()` is what it carried until it ended. */
  async function open(query: string) {
    const response = await request(`${base}/listen?${query}`);
    let text = "";
    let ended = false;
    response.body.setEncoding("utf8");
    response.body.on("data", (chunk: string) => {
      text += chunk;
    });
    const done = new Promise<void>((resolve) =>
      response.body.on("end", () => {
        ended = true;
        resolve();
      }),
    );
    // A refusal is read whole; an open stream is given a moment to carry its acknowledgement.
    await (response.statusCode === 200 ? new Promise((resolve) => setTimeout(resolve, 20)) : done);
    return {
      status: response.statusCode,
      text: () => text,
      ended: () => ended,
      done,
      cancel: () => response.body.destroy(),
    };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  it("resolves each subscribed URI once per change, however many streams subscribe to it", async () => {
    let stringified = 0;
    const counted = {
      toJSON: () => {
        stringified += 1;
        return "text/plain";
      },
    };
    served = version({ mimeType: counted });
    const streams = [await open("caller=a"), await open("caller=b"), await open("caller=c")];
    subscriptions.changed(served, version({ text: "B", mimeType: counted }));
    await settle();
    // Each version once for its list (list_changed) and once for the URI: not once per stream.
    expect(stringified).toBe(4);
    for (const stream of streams) expect(stream.text()).toContain('"notifications/resources/updated"');
  });

  it("runs the poll timer only while a stream is open on an Exposition with polled resources", async () => {
    const plain = await open("caller=a");
    expect(subscriptions.polling).toBe(false);
    subscriptions.changed(served, version({ polled: true }));
    expect(subscriptions.polling).toBe(true);
    subscriptions.changed(version({ polled: true }), version({ text: "B" }));
    expect(subscriptions.polling).toBe(false);
    served = version({ polled: true });
    plain.cancel();
    await settle();
    const polled = await open("caller=a");
    expect(subscriptions.polling).toBe(true);
    polled.cancel();
    await settle();
    expect(subscriptions.polling).toBe(false);
  });

  it("refuses a caller's stream past its bound with 503 in words, while others still open theirs", async () => {
    const first = await open("caller=a");
    await open("caller=a");
    const refused = await open("caller=a");
    expect(refused.status).toBe(503);
    expect(refused.text()).toBe(
      "This client holds 2 notification streams on this gateway, the most it may; close one or retry later",
    );
    expect((await open("caller=b")).status).toBe(200);
    first.cancel();
    await settle();
    expect((await open("caller=a")).status).toBe(200);
  });

  it("ends a stream when its token expires", async () => {
    const expiring = await open(`caller=a&until=${Date.now() + 200}`);
    const lasting = await open("caller=b");
    expect(expiring.ended()).toBe(false);
    await expiring.done;
    expect(lasting.ended()).toBe(false);
  });

  it("ends the streams of an Exposition whose authentication changed, not those of another change", async () => {
    const stream = await open("caller=a");
    subscriptions.changed(served, version({ text: "B" }));
    await settle();
    expect(stream.ended()).toBe(false);
    subscriptions.changed(version({ text: "B" }), version({ text: "B", apiKeyHash: "ab" }));
    await stream.done;
    served = version({ apiKeyHash: "ab" });
    const again = await open("caller=a");
    subscriptions.changed(served, version({ apiKeyHash: "ab", oauth: { issuer: "https://id.example" } }));
    await again.done;
  });

  it("refuses a stream authorized by a version whose authentication has since changed, with 503 in words", async () => {
    registry.set("e1", version({ apiKeyHash: "ab" }));
    const refused = await open("caller=a");
    expect(refused.status).toBe(503);
    expect(refused.text()).toBe(
      "This endpoint's authentication changed while the stream was opening; retry with its new credentials",
    );
    // Another change since (not of authentication) opens it, on the version served now.
    registry.set("e1", version({ text: "B" }));
    const opened = await open("caller=a");
    expect(opened.status).toBe(200);
    subscriptions.changed(version({ text: "B" }), version({ text: "C" }));
    await settle();
    expect(opened.text()).toContain('"notifications/resources/updated"');
  });
});
