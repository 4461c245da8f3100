/**
 * subscriptions/listen's filter, checked before a stream opens: flags are booleans (false ones
 * dropped), URIs a list of at most 100 strings (duplicates dropped); anything else is -32602.
 */
import { describe, expect, it } from "vitest";
import { listenRequest, MAX_SUBSCRIBED_URIS } from "./subscriptions.ts";
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
