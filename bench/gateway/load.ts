/**
 * Load generation for the gateway benchmark. Two drivers, one result shape:
 * - `autocannonLoad`: autocannon's programmatic API (a fresh JSON-RPC id per request through
 *   `idReplacement`), with every response's latency kept, since autocannon's own percentiles
 *   are whole milliseconds and the targets are about tenths of one;
 * - `closedLoopLoad`: N loops each awaiting its call before sending the next, for servers whose
 *   answers do not come back on the request (@ivotoby/openapi-mcp-server answers tools/call on
 *   the session's GET stream; its POST only gets 202).
 */
import autocannon, { type Client } from "autocannon";

export interface LoadResult {
  /** Responses received (any status) while the load ran. */
  calls: number;
  seconds: number;
  perSecond: number;
  /** Responses with a status outside 2xx (or, for closed loops, calls that failed). */
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  p50Ms: number;
  p99Ms: number;
  /** Every call's latency, ascending (kept so runs can be pooled). */
  latencies: number[];
}

export interface HttpTarget {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  /** JSON-RPC body whose id is `"[<id>]"`, replaced by a unique id in every request. */
  body?: string;
  /** Changes each connection's requests as it runs (a session opened on the connection, session-per-connection.ts). */
  setupClient?: (client: Client) => void;
}

/** The latency at quantile `q` of ascending `sorted` (nearest rank). */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/** The median of the finite `values`; NaN when there is none. */
export function median(values: number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export function summarize(latencies: number[], seconds: number, non2xx: number, errors: number): LoadResult {
  latencies.sort((a, b) => a - b);
  return {
    calls: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    non2xx,
    errors,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    latencies,
  };
}

export async function autocannonLoad(
  target: HttpTarget,
  options: { connections: number; seconds: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let non2xx = 0;
  const started = performance.now();
  const instance = autocannon({
    url: target.url,
    method: target.method,
    headers: target.headers,
    body: target.body,
    idReplacement: target.body?.includes("[<id>]") ?? false,
    ...(target.setupClient ? { setupClient: target.setupClient } : {}),
    connections: options.connections,
    duration: options.seconds,
    timeout: 10,
  });
  instance.on("response", (_client, statusCode, _bytes, ms) => {
    latencies.push(ms);
    if (statusCode < 200 || statusCode > 299) non2xx += 1;
  });
  const result = await instance;
  const seconds = (performance.now() - started) / 1000;
  return summarize(latencies, seconds, non2xx, result.errors + result.timeouts);
}

/** Runs `call` in `connections` concurrent loops for `seconds`; a call resolves when its answer is in. */
export async function closedLoopLoad(
  call: () => Promise<void>,
  options: { connections: number; seconds: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      const sent = performance.now();
      try {
        await call();
        latencies.push(performance.now() - sent);
      } catch {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, loop));
  const seconds = (performance.now() - started) / 1000;
  return summarize(latencies, seconds, failed, 0);
}
