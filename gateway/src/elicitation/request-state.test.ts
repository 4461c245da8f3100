/**
 * Sealing the MRTR requestState and the cluster keyring it uses: a state opens only for the user,
 * Exposition, tool and arguments it was sealed for, before it expires, with a key the keyring
 * holds; each refusal has its own reason. Real AES-256-GCM, no mocks.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ClusterKeyring } from "./cluster-keys.ts";
import { newElicitationId } from "./elicitation-id.ts";
import {
  argumentsDigest,
  openRequestState,
  REQUEST_STATE_REFUSALS,
  REQUEST_STATE_TTL_SECONDS,
  type RequestBinding,
  sealRequestState,
} from "./request-state.ts";

const key = randomBytes(32);
const keyring = new ClusterKeyring([key]);
const now = 1_800_000_000;
const binding: RequestBinding = {
  principal: { iss: "https://id.example", sub: "alice" },
  expositionId: "exp-1",
  tool: "get_weather",
  arguments: { city: "Lyon", units: { temp: "C", wind: "kmh" } },
};

function sealed(overrides: Partial<RequestBinding> = {}, ttlSeconds?: number) {
  return sealRequestState(keyring, { ...binding, ...overrides }, "elicit-1", {
    now,
    ...(ttlSeconds ? { ttlSeconds } : {}),
  });
}

describe("requestState", () => {
  it("opens for the same user, Exposition, tool and arguments (key order does not matter)", () => {
    const state = sealed();
    const reordered = { ...binding, arguments: { units: { wind: "kmh", temp: "C" }, city: "Lyon" } };
    expect(openRequestState(keyring, state, reordered, now + 1)).toEqual({
      ok: true,
      state: { elicitationId: "elicit-1", expiresAt: now + REQUEST_STATE_TTL_SECONDS },
    });
  });

  it("holds nothing readable: not the arguments, the user or the tool", () => {
    const text = Buffer.from(sealed().split(".")[1] as string, "base64url").toString("latin1");
    for (const clear of ["Lyon", "alice", "get_weather", "exp-1"]) expect(text).not.toContain(clear);
  });

  it("refuses a tampered state: every flipped byte, a truncated one, a swapped key id", () => {
    const state = sealed();
    const [id, body] = state.split(".") as [string, string];
    const bytes = Buffer.from(body, "base64url");
    for (let i = 0; i < bytes.length; i++) {
      const flipped = Buffer.from(bytes);
      flipped[i] = (flipped[i] as number) ^ 0x01;
      const result = openRequestState(keyring, `${id}.${flipped.toString("base64url")}`, binding, now);
      expect(result, `byte ${i}`).toMatchObject({ ok: false, reason: "tampered" });
    }
    expect(
      openRequestState(keyring, `${id}.${bytes.subarray(0, 40).toString("base64url")}`, binding, now),
    ).toMatchObject({
      ok: false,
      reason: "tampered",
    });
    expect(openRequestState(keyring, `AAAAAAAA.${body}`, binding, now)).toMatchObject({
      ok: false,
      reason: "unknown-key",
    });
  });

  it("refuses what is not a sealed state at all", () => {
    for (const junk of ["", "abc", ".x", "a.b c", `${keyring.currentKeyId}.AAAA`, "x".repeat(5000)])
      expect(openRequestState(keyring, junk, binding, now), junk.slice(0, 20)).toMatchObject({
        ok: false,
        reason: "malformed",
      });
  });

  it("refuses an expired state, at the second it expires", () => {
    const state = sealed({}, 60);
    expect(openRequestState(keyring, state, binding, now + 59).ok).toBe(true);
    expect(openRequestState(keyring, state, binding, now + 60)).toEqual({
      ok: false,
      reason: "expired",
      message: REQUEST_STATE_REFUSALS.expired,
    });
  });

  it("refuses another user, another issuer with the same subject, and a session for a user", () => {
    const state = sealed();
    const others = [
      { iss: "https://id.example", sub: "bob" },
      { iss: "https://evil.example", sub: "alice" },
      { sessionId: "some-session" },
    ];
    for (const principal of others)
      expect(openRequestState(keyring, state, { ...binding, principal }, now)).toMatchObject({
        ok: false,
        reason: "other-user",
      });
  });

  it("binds a 2025 session when there is no OAuth: another session is refused", () => {
    const state = sealed({ principal: { sessionId: "session-a" } });
    expect(openRequestState(keyring, state, { ...binding, principal: { sessionId: "session-a" } }, now).ok).toBe(true);
    expect(openRequestState(keyring, state, { ...binding, principal: { sessionId: "session-b" } }, now)).toMatchObject({
      ok: false,
      reason: "other-user",
    });
  });

  it("refuses another Exposition, tool or arguments, each with its reason", () => {
    const state = sealed();
    expect(openRequestState(keyring, state, { ...binding, expositionId: "exp-2" }, now)).toMatchObject({
      reason: "other-exposition",
    });
    expect(openRequestState(keyring, state, { ...binding, tool: "delete_all" }, now)).toMatchObject({
      reason: "other-tool",
    });
    expect(openRequestState(keyring, state, { ...binding, arguments: { city: "Paris" } }, now)).toMatchObject({
      reason: "other-arguments",
    });
  });

  it("a rotation: the new keyring opens what the previous key sealed and seals with the new one", () => {
    const old = sealed();
    const rotated = new ClusterKeyring([randomBytes(32), key]);
    expect(openRequestState(rotated, old, binding, now).ok).toBe(true);
    const fresh = sealRequestState(rotated, binding, "elicit-2", { now });
    expect(fresh.startsWith(`${rotated.currentKeyId}.`)).toBe(true);
    expect(rotated.currentKeyId).not.toBe(keyring.currentKeyId);
    expect(openRequestState(keyring, fresh, binding, now)).toMatchObject({ ok: false, reason: "unknown-key" });
  });

  it("another cluster's key is refused", () => {
    const other = new ClusterKeyring([randomBytes(32)]);
    const state = sealRequestState(other, binding, "elicit-1", { now });
    expect(openRequestState(keyring, state, binding, now)).toMatchObject({ ok: false, reason: "unknown-key" });
  });
});

describe("cluster keyring", () => {
  it("a value sealed for one purpose does not open as another, nor with another context", () => {
    const sealedCredential = keyring.seal("elicited-credential", Buffer.from("secret"), "exp-1 alice");
    expect(keyring.open("elicited-credential", sealedCredential, "exp-1 alice")).toEqual({
      ok: true,
      plaintext: Buffer.from("secret"),
    });
    expect(keyring.open("request-state", sealedCredential, "exp-1 alice")).toEqual({ ok: false, reason: "tampered" });
    expect(keyring.open("elicited-credential", sealedCredential, "exp-1 bob")).toEqual({
      ok: false,
      reason: "tampered",
    });
  });

  it("signs with the current key, verifies with any key of the ring, refuses another message or key", () => {
    const signature = keyring.sign("elicitation-form", "id nonce");
    expect(signature.startsWith(`${keyring.currentKeyId}.`)).toBe(true);
    expect(keyring.verify("elicitation-form", "id nonce", signature)).toBe(true);
    expect(keyring.verify("elicitation-form", "id other", signature)).toBe(false);
    const rotated = new ClusterKeyring([randomBytes(32), key]);
    expect(rotated.verify("elicitation-form", "id nonce", signature)).toBe(true);
    expect(new ClusterKeyring([randomBytes(32)]).verify("elicitation-form", "id nonce", signature)).toBe(false);
    const [id, tag] = signature.split(".") as [string, string];
    for (const forged of ["", ".", id, `${id}.`, `${id}.${tag.slice(1)}`, `${id}.${tag}A`, `x${signature}`])
      expect(keyring.verify("elicitation-form", "id nonce", forged), forged).toBe(false);
  });

  it("refuses a key shorter than 32 bytes and an empty keyring", () => {
    expect(() => new ClusterKeyring([randomBytes(31)])).toThrow(/at least 32 bytes/);
    expect(() => new ClusterKeyring([])).toThrow(/at least one/);
  });

  it("two gateways with the same key derive the same keys", () => {
    const replica = new ClusterKeyring([Buffer.from(key)]);
    expect(replica.currentKeyId).toBe(keyring.currentKeyId);
    expect(openRequestState(replica, sealed(), binding, now).ok).toBe(true);
  });
});

describe("canonical arguments and the elicitation id", () => {
  it("the digest ignores key order and undefined members but not values or array order", () => {
    expect(argumentsDigest({ a: 1, b: [1, 2] })).toBe(argumentsDigest({ b: [1, 2], a: 1, c: undefined }));
    expect(argumentsDigest({ a: 1, b: [1, 2] })).not.toBe(argumentsDigest({ a: 1, b: [2, 1] }));
    expect(argumentsDigest({ a: "1" })).not.toBe(argumentsDigest({ a: 1 }));
    expect(argumentsDigest(undefined)).toBe(argumentsDigest(null));
  });

  it("elicitation ids are 256 random bits, URL-safe, never repeated", () => {
    const ids = new Set(Array.from({ length: 1000 }, newElicitationId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
