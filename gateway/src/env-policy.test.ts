/**
 * The environment-reference policy: the default prefix, names and globs an operator allows, the
 * gateway's own settings refused whatever the patterns, unset variables refused, and malformed
 * patterns stopped at start-up.
 */
import { afterEach, describe, expect, it } from "vitest";
import { configFromEnv } from "./config.ts";
import { DEFAULT_ENV_ALLOW, envAllowPatterns, envPolicy } from "./env-policy.ts";

const set: string[] = [];
function setEnv(name: string, value: string) {
  process.env[name] = value;
  set.push(name);
}
afterEach(() => {
  for (const name of set.splice(0)) delete process.env[name];
});

describe("environment references", () => {
  it("allows only ATRIUM_BACKEND_SECRET_* by default", () => {
    expect(envAllowPatterns(undefined)).toEqual(DEFAULT_ENV_ALLOW);
    expect(envAllowPatterns(" ")).toEqual(DEFAULT_ENV_ALLOW);
    const policy = envPolicy(DEFAULT_ENV_ALLOW);
    setEnv("ATRIUM_BACKEND_SECRET_PETS", "s");
    setEnv("AWS_SECRET_ACCESS_KEY", "s");
    expect(policy("ATRIUM_BACKEND_SECRET_PETS")).toBeUndefined();
    expect(policy("AWS_SECRET_ACCESS_KEY")).toContain("does not allow");
    expect(policy("ATRIUM_BACKEND_SECRET_UNSET")).toContain("not set");
  });

  it("allows the names and globs its operator lists, never the gateway's own settings", () => {
    const policy = envPolicy(envAllowPatterns("PETS_TOKEN, BILLING_*,*"));
    setEnv("PETS_TOKEN", "s");
    setEnv("BILLING_KEY", "s");
    expect(policy("PETS_TOKEN")).toBeUndefined();
    expect(policy("BILLING_KEY")).toBeUndefined();
    for (const own of [
      "ATRIUM_CONTROL_PLANE_TOKEN",
      "ATRIUM_CONTROL_PLANE_TOKEN_FILE",
      "ATRIUM_GATEWAY_SESSION_KEY",
      "ATRIUM_GATEWAY_ENV_ALLOW",
      "ATRIUM_LOG_LEVEL",
    ]) {
      setEnv(own, "s");
      expect(policy(own), own).toContain("never resolvable");
    }
    expect(envPolicy(["ATRIUM_*"])("ATRIUM_GATEWAY_SESSION_KEY")).toContain("never resolvable");
  });

  it("an empty value is refused, never sent", () => {
    setEnv("ATRIUM_BACKEND_SECRET_EMPTY", "");
    expect(envPolicy(DEFAULT_ENV_ALLOW)("ATRIUM_BACKEND_SECRET_EMPTY")).toContain("not set (or empty)");
  });

  it("stops the gateway at start-up on a malformed pattern", () => {
    const env = { ATRIUM_CONTROL_PLANE_TOKEN: "t", ATRIUM_GATEWAY_ID: "gw", ATRIUM_GATEWAY_ENV_ALLOW: "OK_*,bad-name" };
    expect(() => configFromEnv(env)).toThrow("ATRIUM_GATEWAY_ENV_ALLOW: 'bad-name'");
    expect(configFromEnv({ ...env, ATRIUM_GATEWAY_ENV_ALLOW: "A,B_*" }).envAllow).toEqual(["A", "B_*"]);
  });
});
