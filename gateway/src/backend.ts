/**
 * Calls backends: one keep-alive undici Pool per backend origin, the plan's header policy and
 * backend secret applied, a timeout that yields a gateway-generated 504, and a cap on how much
 * of a response is read.
 *
 * The timeout covers the whole call: waiting for a share of the pool, waiting for a pooled
 * connection, the headers and the body. Each tool (each `share`) may hold at most
 * SHARE_CONNECTIONS of its origin's POOL_CONNECTIONS connections at once; its further calls wait
 * in its own queue, so a tool whose backend hangs cannot starve the other tools of that origin.
 *
 * A backend that cannot be reached is reported to the client as "unreachable" with a correlation
 * id; its address and error code go to the log only, under that id. So does the name of an
 * environment variable that holds no backend secret.
 */
import { randomBytes } from "node:crypto";
import type { CompiledExposition } from "@atrium/contract";
import type { FastifyBaseLogger } from "fastify";
import { type Dispatcher, Pool } from "undici";
import { type BackendBase, type BackendRequest, joinBackendUrl } from "./tools/request.ts";
import type { BackendResponse } from "./tools/result.ts";

export type BackendOutcome =
  | { kind: "response"; response: BackendResponse }
  | { kind: "timeout"; ms: number }
  | { kind: "error"; message: string };

type Plan = CompiledExposition["plan"];

/** Connections per backend origin. */
export const POOL_CONNECTIONS = 64;
/** Connections one share (a tool of a plan) may hold at once: a quarter of its origin's pool. */
export const SHARE_CONNECTIONS = 16;

/** Who a call is for and by when it must be done. */
export interface CallScope {
  /** The share of the pool it counts against: any object standing for it, such as the tool's runtime. */
  share: object;
  /** `performance.now()` by which it must be answered, when earlier than the plan's timeout (a batch's deadline). */
  deadline?: number;
}

/** ${env:VAR} values are read once: fixed for the lifetime of the process. */
const environment = new Map<string, string | undefined>();
function fromEnvironment(variable: string): string | undefined {
  if (!environment.has(variable)) environment.set(variable, process.env[variable]);
  return environment.get(variable);
}

export class Backends {
  private readonly pools = new Map<string, Pool>();
  /** Keyed by what stands for each share: they go with the tools they belong to. */
  private readonly shares = new WeakMap<object, Share>();
  private readonly maxBodyBytes: number;
  private log: Pick<FastifyBaseLogger, "warn"> | undefined;

  constructor(options: { maxBodyBytes: number }) {
    this.maxBodyBytes = options.maxBodyBytes;
  }

  /** Where failures with a correlation id are logged (the server's logger, set when it is built). */
  setLogger(log: Pick<FastifyBaseLogger, "warn">): void {
    this.log = log;
  }

  async call(
    backend: BackendBase,
    plan: Plan,
    call: BackendRequest,
    clientHeaders: Record<string, string | string[] | undefined>,
    scope: CallScope,
  ): Promise<BackendOutcome> {
    const started = performance.now();
    const timeoutMs = Math.min(plan.backendTimeoutMs, (scope.deadline ?? Number.POSITIVE_INFINITY) - started);
    if (timeoutMs <= 0) return { kind: "timeout", ms: plan.backendTimeoutMs };
    let target: ReturnType<typeof joinBackendUrl>;
    try {
      target = joinBackendUrl(backend, call.path);
    } catch (error) {
      return { kind: "error", message: (error as Error).message };
    }
    let path = target.path;
    const headers: Record<string, string> = { ...call.headers };
    if (call.contentType) headers["content-type"] = call.contentType;
    applyHeaderPolicy(plan, clientHeaders, headers);
    const secret = plan.backendSecret;
    if (secret && secret.source !== "elicit") {
      const value = secret.source === "value" ? secret.value : fromEnvironment(secret.variable ?? "");
      if (value === undefined) {
        return this.withCorrelation("The gateway has no value for the backend secret", "backend secret not set", {
          variable: secret.variable,
        });
      }
      const text = `${secret.prefix ?? ""}${value}`;
      if (secret.in === "query")
        path += `${path.includes("?") ? "&" : "?"}${encodeURIComponent(secret.name)}=${encodeURIComponent(text)}`;
      else headers[secret.name.toLowerCase()] = text;
    }
    const options: Dispatcher.DispatchOptions = {
      method: call.method as "GET",
      path,
      headers,
      body: call.body,
      // The call's own timer (PendingCall) covers all of it: undici's would only cover the exchange.
      headersTimeout: 0,
      bodyTimeout: 0,
    };
    const pool = this.pool(target.origin);
    const share = this.share(scope.share);
    const outcome = await new Promise<CallResult>((resolve) => {
      share.enter(new PendingCall(pool, options, share, this.maxBodyBytes, timeoutMs, resolve));
    });
    if (outcome.kind === "timeout") return { kind: "timeout", ms: plan.backendTimeoutMs };
    if (outcome.kind === "failed") {
      // undici refuses what it cannot send (a header value with CR/LF): the plan's fault, said as is.
      if (outcome.error.code === "UND_ERR_INVALID_ARG")
        return { kind: "error", message: `The backend request is invalid: ${outcome.error.message}` };
      const { code, message: reason } = outcome.error;
      return this.withCorrelation("The backend is unreachable", "backend unreachable", {
        backend: target.origin,
        code,
        reason,
      });
    }
    return outcome;
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
    this.pools.clear();
  }

  /** The client learns what failed and a correlation id; the log learns, under that id, where and why. */
  private withCorrelation(forClient: string, forLog: string, details: Record<string, unknown>): BackendOutcome {
    const correlationId = randomBytes(8).toString("hex");
    this.log?.warn({ correlationId, ...details }, forLog);
    return { kind: "error", message: `${forClient} (correlation id ${correlationId})` };
  }

  private pool(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connections: POOL_CONNECTIONS, keepAliveTimeout: 30_000, pipelining: 1 });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  private share(key: object): Share {
    let share = this.shares.get(key);
    if (!share) {
      share = new Share();
      this.shares.set(key, share);
    }
    return share;
  }
}

/** One share of the pool: at most SHARE_CONNECTIONS calls in flight, the others waiting in order. */
class Share {
  private active = 0;
  private readonly waiting: PendingCall[] = [];

  enter(call: PendingCall): void {
    if (this.active < SHARE_CONNECTIONS) this.start(call);
    else this.waiting.push(call);
  }

  private start(call: PendingCall): void {
    this.active++;
    call.started = true;
    call.send();
  }

  /** A started call settled: its slot goes to the next call still waiting. */
  leave(): void {
    this.active--;
    let next = this.waiting.shift();
    // Calls that timed out while waiting settled without a slot: skip them.
    while (next?.settled) next = this.waiting.shift();
    if (next) this.start(next);
  }
}

type CallResult =
  | { kind: "response"; response: BackendResponse }
  | { kind: "timeout" }
  | { kind: "failed"; error: Error & { code?: string } };

/**
 * One backend call from entering its share to its outcome: the timer of the whole call, and
 * undici's handler collecting status, headers and at most `max` bytes of body (the rest is not
 * read). undici's dispatch API rather than `request()`: no Readable stream and async iterator per
 * response, which were most of the garbage a proxied call left behind.
 */
class PendingCall implements Dispatcher.DispatchHandler {
  settled = false;
  /** Holds a slot of its share (a call that times out while waiting never does). */
  started = false;
  private readonly pool: Dispatcher;
  private readonly options: Dispatcher.DispatchOptions;
  private readonly share: Share;
  private controller: Dispatcher.DispatchController | undefined;
  private readonly timer: NodeJS.Timeout;
  private status = 0;
  private headers: BackendResponse["headers"] = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly max: number;
  private readonly resolve: (result: CallResult) => void;

  constructor(
    pool: Dispatcher,
    options: Dispatcher.DispatchOptions,
    share: Share,
    max: number,
    timeoutMs: number,
    resolve: (result: CallResult) => void,
  ) {
    this.pool = pool;
    this.options = options;
    this.share = share;
    this.max = max;
    this.resolve = resolve;
    this.timer = setTimeout(() => {
      this.settle({ kind: "timeout" });
      this.controller?.abort(new Error("backend timeout"));
    }, timeoutMs);
  }

  send(): void {
    try {
      this.pool.dispatch(this.options, this);
    } catch (error) {
      this.settle({ kind: "failed", error: error as Error });
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController) {
    this.controller = controller;
    // Timed out while queued in the pool: it is not sent.
    if (this.settled) controller.abort(new Error("backend timeout"));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: BackendResponse["headers"]) {
    this.status = status;
    this.headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer) {
    if (this.settled) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size < this.max) return;
    this.finish(true);
    controller.abort(new Error("response body over the gateway's read limit"));
  }

  onResponseEnd() {
    this.finish(false);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error) {
    this.settle({ kind: "failed", error }); // ignored after our own abort (timeout, read cap)
  }

  private finish(truncated: boolean) {
    if (this.settled) return;
    const body = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size);
    this.settle({
      kind: "response",
      response: {
        status: this.status,
        headers: this.headers,
        body: truncated ? body.subarray(0, this.max) : body,
        ...(truncated ? { truncated } : {}),
      },
    });
  }

  private settle(result: CallResult) {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    if (this.started) this.share.leave();
    this.resolve(result);
  }
}

function applyHeaderPolicy(
  plan: Plan,
  client: Record<string, string | string[] | undefined>,
  headers: Record<string, string>,
) {
  const policy = plan.headerPolicy;
  if (!policy) return;
  for (const name of policy.forwardRequestHeaders ?? []) {
    const value = client[name.toLowerCase()];
    if (value === undefined) continue;
    const target =
      Object.entries(policy.renameRequestHeaders ?? {}).find(
        ([from]) => from.toLowerCase() === name.toLowerCase(),
      )?.[1] ?? name;
    headers[target.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  for (const [name, value] of Object.entries(policy.setRequestHeaders ?? {})) headers[name.toLowerCase()] = value;
}
