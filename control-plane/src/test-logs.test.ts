/**
 * The capture the end-of-run secrets scan relies on (reliability/src/secrets): under the root
 * vitest config, a control plane started by test support logs verbosely to a file of its own in
 * the run dir, and the ApiClient records the secrets it sends and receives in the run's ledger.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { testRunDir } from "@atrium/reliability/secrets";
import { describe, expect, it } from "vitest";
import { startControlPlane } from "./app.ts";
import { ApiClient, TEST_ADMIN, testConfig } from "./testing.ts";

describe("test logs and the secrets ledger", () => {
  it("a test control plane logs at debug to the run dir, and its admin's token is in the ledger", async () => {
    const runDir = testRunDir();
    expect(runDir, "the root vitest config's global setup sets ATRIUM_TEST_RUN_DIR").toBeDefined();
    const config = testConfig();
    expect(config.logLevel).toBe("debug");
    expect(config.logFile?.startsWith(join(String(runDir), "logs"))).toBe(true);
    const controlPlane = await startControlPlane(config);
    let token: string | undefined;
    try {
      token = (await new ApiClient(controlPlane.url).login(TEST_ADMIN)).token;
    } finally {
      await controlPlane.close();
    }
    await expect.poll(() => existsSync(String(config.logFile))).toBe(true);
    const lines = () => readFileSync(String(config.logFile), "utf8").split("\n").filter(Boolean);
    await expect.poll(() => lines().some((line) => line.includes('"url":"/api/v1/login"'))).toBe(true);
    expect(lines().length).toBeGreaterThan(2);

    const ledger = readFileSync(join(String(runDir), "ledger", `${process.pid}.jsonl`), "utf8");
    expect(ledger).toContain(JSON.stringify({ kind: "login token", value: token }));
    expect(ledger).toContain(JSON.stringify({ kind: "bootstrap admin password", value: TEST_ADMIN.password }));
    expect(ledger).toContain('"kind":"encryption key"');
  });
});
