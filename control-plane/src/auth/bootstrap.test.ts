/**
 * Replicas starting at the same moment on an empty database: both come up, exactly one creates
 * the admin, and each says who did and where the password is shown.
 */
import { describe, expect, it } from "vitest";
import { type ControlPlane, startControlPlane } from "../app.ts";
import { createTestDatabase, testConfig } from "../testing.ts";

describe("first start of two replicas together", () => {
  it("brings both up with one admin, 10 times out of 10", async () => {
    for (let attempt = 0; attempt < 10; attempt++) {
      const database = await createTestDatabase();
      const started: ControlPlane[] = [];
      try {
        const config = testConfig({
          databaseUrl: database.url,
          bootstrap: { organization: "default", username: "admin", password: undefined },
        });
        const results = await Promise.allSettled([startControlPlane(config), startControlPlane(config)]);
        for (const result of results) if (result.status === "fulfilled") started.push(result.value);
        expect(results.map((result) => result.status)).toEqual(["fulfilled", "fulfilled"]);
        const bootstraps = started.map((replica) => replica.bootstrap);
        expect(bootstraps.filter((bootstrap) => bootstrap.created)).toHaveLength(1);
        const creator = bootstraps.find((bootstrap) => bootstrap.created);
        const other = bootstraps.find((bootstrap) => !bootstrap.created);
        expect(creator?.generatedPassword).toBeTruthy();
        expect(creator?.message).toContain("This replica created the admin 'admin' of organization 'default'");
        expect(other?.generatedPassword).toBeUndefined();
        expect(other?.message).toMatch(/created by another replica starting at the same time|exists since/);
        expect(other?.message).toContain("standard output");
      } finally {
        await Promise.all(started.map((replica) => replica.close()));
        await database.drop();
      }
    }
  }, 120_000);

  it("tells a later start who created the admin", async () => {
    const database = await createTestDatabase();
    try {
      const config = testConfig({ databaseUrl: database.url });
      const first = await startControlPlane(config);
      await first.close();
      const second = await startControlPlane(config);
      await second.close();
      expect(first.bootstrap.created).toBe(true);
      expect(second.bootstrap).toMatchObject({ created: false });
      expect(second.bootstrap.message).toContain("The platform admin 'admin' of organization 'default' exists since");
    } finally {
      await database.drop();
    }
  });
});
