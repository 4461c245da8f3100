/** isAlive: what the cleanups of stale runs (test run dirs, private PostgreSQL servers, the test cluster's lock) decide by. */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isAlive } from "./processes.ts";

describe("isAlive", () => {
  it("is true for a running process and false once it has exited", () => {
    expect(isAlive(process.pid)).toBe(true);
    const ended = spawnSync(process.execPath, ["-e", ""]);
    expect(ended.status).toBe(0);
    expect(isAlive(ended.pid as number)).toBe(false);
  });

  it("is true for a process of another user (signal 0 refused with EPERM)", () => {
    // As root every process can be signalled; as another user, pid 1 (init) refuses with EPERM.
    expect(isAlive(1)).toBe(true);
  });
});
