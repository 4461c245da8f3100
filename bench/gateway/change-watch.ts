/**
 * The watcher of the change-applied check (change-applied.ts), in a process of its own pinned by
 * the runner: it asks a gateway endpoint `tools/list` back to back on one connection and prints
 * the monotonic time of the first answer in which `tool` is listed (or no longer listed). It
 * never sleeps between requests, so it adds no delay of its own beyond one round trip, which it
 * reports as its resolution.
 *
 *   node bench/gateway/change-watch.ts <job.json>
 *   prints `watching` once the tool is in the state opposite to the one awaited,
 *   then `seen {"atMicros":…,"polls":…,"roundTripMicros":…}` (or exits 1 after `timeoutMs`)
 */
import { readFileSync } from "node:fs";
import { Pool } from "undici";
import { LIST_HEADERS, toolsListBody } from "./mcp.ts";

export interface WatchJob {
  /** The Exposition's MCP endpoint. */
  url: string;
  tool: string;
  /** Wait for the tool to be listed (true) or to be gone (false). */
  listed: boolean;
  timeoutMs: number;
}

export interface WatchResult {
  /** `process.hrtime` (CLOCK_MONOTONIC, shared by every process of the machine) when the answer was read, µs. */
  atMicros: number;
  /** Requests sent after `watching` until the change was seen. */
  polls: number;
  /** Mean round trip of those requests: the resolution of `atMicros`. */
  roundTripMicros: number;
}

const micros = () => Number(process.hrtime.bigint() / 1000n);

async function watch(job: WatchJob, announce: () => void): Promise<WatchResult> {
  const target = new URL(job.url);
  const pool = new Pool(target.origin, { connections: 1 });
  const marker = `"name":${JSON.stringify(job.tool)}`;
  const deadline = Date.now() + job.timeoutMs;
  try {
    const listed = async (id: number) => {
      const response = await pool.request({
        path: target.pathname,
        method: "POST",
        headers: LIST_HEADERS,
        body: toolsListBody(id),
      });
      const text = await response.body.text();
      if (response.statusCode !== 200)
        throw new Error(`${job.url} answered ${response.statusCode}: ${text.slice(0, 300)}`);
      return text.includes(marker);
    };
    if ((await listed(0)) === job.listed) {
      throw new Error(`${job.tool} is already ${job.listed ? "listed" : "gone"} before the change`);
    }
    announce();
    const started = micros();
    for (let polls = 1; ; polls++) {
      if ((await listed(polls)) === job.listed) {
        const atMicros = micros();
        return { atMicros, polls, roundTripMicros: (atMicros - started) / polls };
      }
      if (Date.now() > deadline)
        throw new Error(`${job.tool} not ${job.listed ? "listed" : "gone"} after ${job.timeoutMs} ms`);
    }
  } finally {
    await pool.close();
  }
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: change-watch.ts <job.json>");
  const job = JSON.parse(readFileSync(file, "utf8")) as WatchJob;
  const result = await watch(job, () => console.log("watching"));
  console.log(`seen ${JSON.stringify(result)}`);
}
