/**
 * The client of the tools/list scale check, in a process of its own (pinned by the runner) so
 * that the runner's own garbage and timers do not land in the timings: `count` sequential POSTs
 * on one connection, each timed from sending to the last byte read — with `gzip`, to the body
 * decoded, as a client must. One untimed request first, whose answer is kept.
 *
 *   node bench/gateway/sequential-client.ts <job.json>   (prints `done` once <job.resultFile> is written)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { Pool } from "undici";

export interface SequentialJob {
  url: string;
  headers: Record<string, string>;
  /** The request body, `__ID__` standing for each request's JSON-RPC id (0 for the untimed one). */
  bodyTemplate: string;
  count: number;
  gzip: boolean;
  /** Where the untimed first answer (decoded) is written. */
  answerFile: string;
  resultFile: string;
}

export interface SequentialResult {
  /** Milliseconds, sorted. */
  timings: number[];
  /** Bytes of the last answer as sent (compressed, with gzip). */
  wireBytes: number;
}

async function run(job: SequentialJob): Promise<SequentialResult> {
  const target = new URL(job.url);
  const pool = new Pool(target.origin, { connections: 1 });
  const timings: number[] = [];
  let firstLength = 0;
  let wireBytes = 0;
  try {
    for (let i = 0; i <= job.count; i++) {
      const started = performance.now();
      const response = await pool.request({
        path: target.pathname,
        method: "POST",
        headers: job.headers,
        body: job.bodyTemplate.replace("__ID__", String(i)),
      });
      let bytes = 0;
      let body: Buffer | undefined;
      if (job.gzip || i === 0) {
        const wire = Buffer.from(await response.body.arrayBuffer());
        wireBytes = wire.length;
        body = job.gzip ? gunzipSync(wire) : wire;
        bytes = body.length;
      } else {
        // Counted, not kept: building megabyte buffers would time this client's GC too.
        for await (const chunk of response.body) bytes += (chunk as Buffer).length;
        wireBytes = bytes;
      }
      const elapsed = performance.now() - started;
      if (response.statusCode !== 200) throw new Error(`${job.url} answered ${response.statusCode}`);
      if (job.gzip && response.headers["content-encoding"] !== "gzip")
        throw new Error(`${job.url} did not answer with gzip`);
      if (i === 0) {
        writeFileSync(job.answerFile, body as Buffer);
        firstLength = bytes;
        continue;
      }
      // Each answer differs from the first at most by its id's digits (the floor server repeats the first).
      if (bytes !== firstLength && bytes !== firstLength + String(i).length - 1)
        throw new Error(`${job.url} answered ${bytes} bytes (the first answer had ${firstLength})`);
      timings.push(elapsed);
    }
  } finally {
    await pool.close();
  }
  return { timings: timings.sort((a, b) => a - b), wireBytes };
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: sequential-client.ts <job.json>");
  const job = JSON.parse(readFileSync(file, "utf8")) as SequentialJob;
  writeFileSync(job.resultFile, JSON.stringify(await run(job)));
  console.log("done");
}
