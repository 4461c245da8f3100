/**
 * The server-process helpers in a child process each: a bad setting exits 2 naming it, a failed
 * start exits 1 saying why, and a signal stops the server once (a second signal during the stop
 * changes nothing) and exits 0, or 1 when the stop failed.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";

const helpers = new URL("./process-lifecycle.ts", import.meta.url).href;

/**
 * Runs `body` as an ES module importing the helpers. The first of `signals` is sent once it prints
 * "ready", the others once it prints "stop" (a stop is under way): sent together, two pending
 * signals reach the process lowest number first (SIGINT before SIGTERM), whatever the send order.
 */
function run(body: string, signals: NodeJS.Signals[] = []): Promise<{ code: number | null; output: string }> {
  const source = `import { settingsOrExit, startedOrExit, stopOnSignal } from ${JSON.stringify(helpers)};\n${body}`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", source], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let sentFirst = false;
  const collect = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    if (signals.length === 0 || !output.includes("ready")) return;
    if (!sentFirst) {
      sentFirst = true;
      child.kill(signals.shift());
    } else if (output.includes("stop")) {
      for (const signal of signals.splice(0)) child.kill(signal);
    }
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, output })));
}

describe("process lifecycle", () => {
  it("exits 2 naming the bad setting", async () => {
    const { code, output } = await run(
      `settingsOrExit("atrium x", () => { throw new Error("ATRIUM_PORT must be a port"); });`,
    );
    expect(code).toBe(2);
    expect(output).toContain("atrium x: ATRIUM_PORT must be a port");
  });

  it("exits 1 saying why the start failed", async () => {
    const { code, output } = await run(
      `await startedOrExit("atrium x", Promise.reject(new Error("port in use")), (e) => "described: " + e.message);`,
    );
    expect(code).toBe(1);
    expect(output).toContain("atrium x failed to start: described: port in use");
  });

  it("stops once on the first signal and exits 0", async () => {
    const { code, output } = await run(
      `const server = await startedOrExit("atrium x", Promise.resolve({ stops: 0 }));
       stopOnSignal(async (signal) => { server.stops++; console.log("stop " + signal + " " + server.stops);
         await new Promise((r) => setTimeout(r, 200)); });
       console.log("ready"); setInterval(() => {}, 1000);`,
      ["SIGTERM", "SIGINT"],
    );
    expect(code).toBe(0);
    expect(output).toContain("stop SIGTERM 1");
    expect(output).not.toContain("stop SIGINT");
  });

  it("exits 1 when the stop fails", async () => {
    const { code } = await run(
      `stopOnSignal(async () => { throw new Error("close failed"); }); console.log("ready"); setInterval(() => {}, 1000);`,
      ["SIGINT"],
    );
    expect(code).toBe(1);
  });
});
