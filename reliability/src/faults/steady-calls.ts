/**
 * Steady MCP traffic for fault tests: one official client per era (SDK v1 with a 2025 session,
 * the v2 client pinned to 2026-07-28, stateless), each calling a tool in a loop until stopped. A
 * call fails when it throws or its result is marked `isError`; each failure is kept with why.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as SessionClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as SessionTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export interface SteadyCalls {
  /** Calls answered without error, per era. */
  ok: { session: number; modern: number };
  /** What went wrong, per failed call. */
  failures: string[];
  /** Stops the loops (after their current call) and closes the clients; once, however often called. */
  stop(): Promise<void>;
}

interface ToolCaller {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{ isError?: unknown }>;
  close(): Promise<void>;
}

/** Starts both clients on `url` and calls `tool` with `args` every `pauseMs` on each. */
export async function startSteadyCalls(
  url: string,
  headers: Record<string, string>,
  tool: { name: string; arguments: Record<string, unknown> },
  pauseMs = 20,
): Promise<SteadyCalls> {
  const session = new SessionClient({ name: "reliability-2025", version: "1" });
  await session.connect(new SessionTransport(new URL(url), { requestInit: { headers } }));
  const modern = new ModernClient(
    { name: "reliability-2026", version: "1" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await modern.connect(new ModernTransport(new URL(url), { requestInit: { headers } }));
  const steady: SteadyCalls = { ok: { session: 0, modern: 0 }, failures: [], stop: async () => {} };
  let running = true;
  const loop = async (era: "session" | "modern", client: ToolCaller) => {
    while (running) {
      try {
        const result = await client.callTool(tool);
        if (result.isError) steady.failures.push(`${era}: isError ${JSON.stringify(result).slice(0, 300)}`);
        else steady.ok[era]++;
      } catch (error) {
        steady.failures.push(`${era}: ${(error as Error).message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  };
  const loops = [loop("session", session as unknown as ToolCaller), loop("modern", modern as unknown as ToolCaller)];
  let stopping: Promise<void> | undefined;
  // Once: the test stops it to read its counts, and its cleanup stops it again.
  steady.stop = () => {
    stopping ??= (async () => {
      running = false;
      await Promise.all(loops);
      await Promise.all([session.close(), modern.close()]);
    })();
    return stopping;
  };
  return steady;
}
