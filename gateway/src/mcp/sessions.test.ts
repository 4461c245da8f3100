/**
 * Session ids are verified once and then remembered by their exact text: the remembered ones
 * must keep every refusal the full check makes — forged, tampered, another key's, expired,
 * ended here or on another replica — and stay correct beyond the memory's bound.
 */
import { randomBytes } from "node:crypto";
import { SESSION_TTL_SECONDS } from "@atrium/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_VERIFIED_SESSIONS, SessionSigner, sessionHash } from "./sessions.ts";

const opened = { expositionId: "exp-1", protocolVersion: "2025-06-18", elicitation: false };

/** `id` with the character at `index` replaced by another base64url character. */
function flipped(id: string, index: number): string {
  const replacement = id[index] === "A" ? "B" : "A";
  return `${id.slice(0, index)}${replacement}${id.slice(index + 1)}`;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("SessionSigner", () => {
  it("verifies an id it issued, the same session on every call", () => {
    const signer = new SessionSigner();
    const id = signer.issue({ ...opened, user: "https://issuer|alice" });
    const first = signer.verify(id);
    expect(first).toMatchObject({ ...opened, user: "https://issuer|alice" });
    expect(signer.verify(id)).toEqual(first);
  });

  it("refuses forged and tampered ids, before and after the genuine one was remembered", () => {
    const signer = new SessionSigner();
    const id = signer.issue(opened);
    const dot = id.indexOf(".");
    const forgeries = [
      flipped(id, 2), // payload changed, signature kept
      flipped(id, dot + 3), // signature changed
      `${id}=`, // decodes to the same signature bytes: a second text of it
      `${id}!`,
      `${id.slice(0, dot)}.`,
      new SessionSigner().issue(opened), // another key's
      `${Buffer.from(JSON.stringify({ e: "exp-1", v: "2025-06-18", t: Date.now() / 1000, l: 0 })).toString("base64url")}.${"A".repeat(43)}`,
      "no-dot",
      "",
    ];
    for (const forged of forgeries) expect(signer.verify(forged), forged).toBeUndefined();
    expect(signer.verify(id)).toBeDefined();
    for (const forged of forgeries) expect(signer.verify(forged), forged).toBeUndefined();
  });

  it("refuses a remembered session once it has expired", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const signer = new SessionSigner();
    const id = signer.issue(opened);
    expect(signer.verify(id)).toBeDefined();
    vi.setSystemTime(Date.now() + (SESSION_TTL_SECONDS - 5) * 1000);
    expect(signer.verify(id)).toBeDefined();
    vi.setSystemTime(Date.now() + 10_000);
    expect(signer.verify(id)).toBeUndefined();
    expect(signer.verify(id)).toBeUndefined();
  });

  it("refuses a remembered session once it was ended here", () => {
    const reported: string[] = [];
    const signer = new SessionSigner(randomBytes(32), (ended) => reported.push(ended.sessionHash));
    const id = signer.issue(opened);
    const other = signer.issue(opened);
    expect(signer.verify(id)).toBeDefined();
    expect(signer.verify(other)).toBeDefined();
    signer.end(id);
    expect(reported).toEqual([sessionHash(id)]);
    expect(signer.verify(id)).toBeUndefined();
    expect(signer.verify(`${id}=`)).toBeUndefined();
    expect(signer.verify(other)).toBeDefined();
  });

  it("refuses a remembered session once another replica ended it (by its hash)", () => {
    const key = randomBytes(32);
    const here = new SessionSigner(key);
    const elsewhere = new SessionSigner(key);
    const id = elsewhere.issue(opened);
    expect(here.verify(id)).toBeDefined();
    const expiresAt = new Date(Date.now() + SESSION_TTL_SECONDS * 1000).toISOString();
    here.refuse([{ expositionId: opened.expositionId, sessionHash: sessionHash(id), expiresAt }]);
    expect(here.verify(id)).toBeUndefined();
  });

  it("still verifies correctly beyond the bound of what it remembers", () => {
    const signer = new SessionSigner();
    const ids = Array.from({ length: MAX_VERIFIED_SESSIONS + 50 }, (_, i) =>
      signer.issue({ ...opened, expositionId: `exp-${i}` }),
    );
    for (const id of ids) signer.verify(id);
    // The first ones were forgotten, so they are checked again; the last ones are remembered.
    expect(signer.verify(ids[0] ?? "")?.expositionId).toBe("exp-0");
    expect(signer.verify(ids.at(-1) ?? "")?.expositionId).toBe(`exp-${ids.length - 1}`);
    signer.end(ids[1] ?? "");
    expect(signer.verify(ids[1] ?? "")).toBeUndefined();
    expect(signer.verify(flipped(ids.at(-1) ?? "", 4))).toBeUndefined();
  });
});
