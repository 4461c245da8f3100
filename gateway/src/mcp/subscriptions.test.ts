/**
 * subscriptions/listen's filter, checked before a stream opens: flags are booleans (false ones
 * dropped), URIs a list of at most 100 strings (duplicates dropped); anything else is -32602.
 * A URI subscribed to, in a listen filter or a 2025 session, is at most 8,192 characters: a
 * template matches URIs of any length, and each subscription is kept.
 */
import type { CompiledExposition } from "@atrium/contract";
import { describe, expect, it } from "vitest";
import type { ServedExposition } from "../registry.ts";
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
