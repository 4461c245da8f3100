/**
 * Login rate limits: after too many failures for one user, or from one address, logins are
 * answered 429 with Retry-After — even with the right password — until the window ends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_KINDS, startIsolatedControlPlane, TEST_ADMIN, type TestControlPlane } from "../testing.ts";
import { LoginRateLimiter } from "./login-rate-limit.ts";

/** Small limits, set as an operator would. */
const MAX_FAILURES = { perUser: 4, perAddress: 9 };

describe("the login rate limiter", () => {
  const limits = { perUser: { failures: 3, windowSeconds: 60 }, perAddress: { failures: 5, windowSeconds: 60 } };

  it("refuses a user after its failures until the window ends, and forgets them after a success", () => {
    const limiter = new LoginRateLimiter(limits);
    const now = 1_000_000;
    for (let i = 0; i < 2; i++) limiter.recordFailure("alice", `10.0.0.${i}`, now);
    limiter.recordSuccess("alice");
    for (let i = 0; i < 3; i++) limiter.recordFailure("alice", `10.0.0.${i}`, now);
    expect(() => limiter.check("alice", "10.0.0.9", now + 1000)).toThrow(/try again in 59 s/);
    expect(() => limiter.check("bob", "10.0.0.9", now + 1000)).not.toThrow();
    expect(() => limiter.check("alice", "10.0.0.9", now + 60_000)).not.toThrow();
  });

  it("refuses an address after its failures, whatever the user", () => {
    const limiter = new LoginRateLimiter(limits);
    for (let i = 0; i < 5; i++) limiter.recordFailure(`user-${i}`, "10.0.0.1", 0);
    expect(() => limiter.check("someone-else", "10.0.0.1", 10)).toThrow(/Too many login attempts/);
    expect(() => limiter.check("someone-else", "10.0.0.2", 10)).not.toThrow();
  });
});

describe.each(DATABASE_KINDS)("login attempts on %s", (kind) => {
  let cp: TestControlPlane & { stop(): Promise<void> };

  beforeAll(async () => {
    cp = await startIsolatedControlPlane(kind, { loginMaxFailures: MAX_FAILURES });
  });
  afterAll(() => cp?.stop());

  it("are answered 429 with Retry-After past the user's limit, even with the right password", async () => {
    const wrong = { ...TEST_ADMIN, password: "wrong-password" };
    for (let i = 0; i < MAX_FAILURES.perUser; i++) {
      expect((await cp.api.call("POST", "/api/v1/login", wrong)).status).toBe(401);
    }
    const refused = await cp.api.call("POST", "/api/v1/login", TEST_ADMIN);
    expect(refused).toMatchObject({ status: 429, body: { code: "TOO_MANY_LOGIN_ATTEMPTS" } });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.body.detail).toMatch(/try again in \d+ s/);
    // Other users are not locked out by it.
    const other = { username: "olga", password: "olga-password-12", role: "member" };
    expect((await cp.admin.call("POST", "/api/v1/users", other)).status).toBe(201);
    expect((await cp.api.call("POST", "/api/v1/login", { ...TEST_ADMIN, ...other })).status).toBe(200);
  });

  it("are answered 429 past the address's limit, for any user", async () => {
    for (let i = 0; i < MAX_FAILURES.perAddress; i++) {
      const response = await cp.api.call("POST", "/api/v1/login", { ...TEST_ADMIN, username: `nobody-${i}` });
      if (response.status === 429) break;
      expect(response.status).toBe(401);
    }
    const refused = await cp.api.call("POST", "/api/v1/login", { ...TEST_ADMIN, username: "olga" });
    expect(refused.status).toBe(429);
  });
});
