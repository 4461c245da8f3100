import { describe, expect, it } from "vitest";
import { configFromEnv } from "./config.ts";

const base = { ATRIUM_CONTROL_PLANE_URL: "https://atrium.example.com/", POD_NAMESPACE: "atrium-system" };

describe("configFromEnv", () => {
  it("reads the token Secret, namespaces and defaults", () => {
    const config = configFromEnv({
      ...base,
      ATRIUM_CONTROL_PLANE_TOKEN_SECRET: "atrium-system/operator-token",
      ATRIUM_WATCH_NAMESPACES: " team-a, team-b ,",
      POD_NAME: "atrium-operator-7d9f",
    });
    expect(config.controlPlaneUrl).toBe("https://atrium.example.com");
    expect(config.token).toEqual({ secret: { namespace: "atrium-system", name: "operator-token", key: "token" } });
    expect(config.watchNamespaces).toEqual(["team-a", "team-b"]);
    expect(config.identity).toMatch(/^atrium-operator-7d9f_[0-9a-f]{8}$/);
    expect(config.leaderElection).toEqual({
      enabled: true,
      namespace: "atrium-system",
      leaseName: "atrium-operator",
      leaseDurationSeconds: 15,
      renewDeadlineSeconds: 10,
      retryPeriodSeconds: 5,
    });
    expect(config.port).toBe(8080);
  });

  it("takes a token file and another key name", () => {
    expect(configFromEnv({ ...base, ATRIUM_CONTROL_PLANE_TOKEN_FILE: "/var/run/atrium/token" }).token).toEqual({
      file: "/var/run/atrium/token",
    });
    expect(
      configFromEnv({ ...base, ATRIUM_CONTROL_PLANE_TOKEN_SECRET: "ns/s", ATRIUM_CONTROL_PLANE_TOKEN_KEY: "apiToken" })
        .token,
    ).toEqual({ secret: { namespace: "ns", name: "s", key: "apiToken" } });
  });

  it("refuses missing or contradictory settings, naming the variable", () => {
    const secret = { ATRIUM_CONTROL_PLANE_TOKEN_SECRET: "ns/s" };
    expect(() => configFromEnv({ ...secret })).toThrow(/^ATRIUM_CONTROL_PLANE_URL: required/);
    expect(() => configFromEnv({ ...base })).toThrow(/^ATRIUM_CONTROL_PLANE_TOKEN_SECRET: required/);
    expect(() => configFromEnv({ ...base, ATRIUM_CONTROL_PLANE_TOKEN_SECRET: "just-a-name" })).toThrow(
      /must be <namespace>\/<name>/,
    );
    expect(() => configFromEnv({ ...base, ...secret, ATRIUM_CONTROL_PLANE_TOKEN_FILE: "/t" })).toThrow(/not both/);
    expect(() => configFromEnv({ ...base, ...secret, ATRIUM_OPERATOR_CONCURRENCY: "0" })).toThrow(
      /^ATRIUM_OPERATOR_CONCURRENCY: must be an integer ≥ 1/,
    );
    expect(() => configFromEnv({ ...base, ...secret, ATRIUM_LEADER_ELECTION_RENEW_DEADLINE_SECONDS: "20" })).toThrow(
      /renew deadline < lease duration/,
    );
  });
});
