/**
 * Calls backends: one keep-alive undici Pool per backend origin, the plan's header policy and
 * backend secret applied, a timeout that yields a gateway-generated 504, and a cap on how much
 * of a response is read.
 */
import type { CompiledExposition } from "@atrium/control-plane/stream";
import { type Dispatcher, Pool, errors as undiciErrors } from "undici";
import { type BackendBase, type BackendRequest, joinBackendUrl } from "./tools/request.ts";
import type { BackendResponse } from "./tools/result.ts";

export type BackendOutcome =
  | { kind: "response"; response: BackendResponse }
  | { kind: "timeout"; ms: number }
  | { kind: "error"; message: string };

type Plan = CompiledExposition["plan"];

/** ${env:VAR} values are read once: fixed for the lifetime of the process. */
const environment = new Map<string, string | undefined>();
function fromEnvironment(variable: string): string | undefined {
  if (!environment.has(variable)) environment.set(variable, process.env[variable]);
  return environment.get(variable);
}

export class Backends {
  private readonly pools = new Map<string, Pool>();
  private readonly maxBodyBytes: number;

  constructor(options: { maxBodyBytes: number }) {
    this.maxBodyBytes = options.maxBodyBytes;
  }

  async call(
    backend: BackendBase,
    plan: Plan,
    call: BackendRequest,
    clientHeaders: Record<string, string | string[] | undefined>,
  ): Promise<BackendOutcome> {
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
        return {
          kind: "error",
          message: `The gateway has no value for the backend secret: set the environment variable ${secret.variable}`,
        };
      }
      const text = `${secret.prefix ?? ""}${value}`;
      if (secret.in === "query")
        path += `${path.includes("?") ? "&" : "?"}${encodeURIComponent(secret.name)}=${encodeURIComponent(text)}`;
      else headers[secret.name.toLowerCase()] = text;
    }
    try {
      const response = await this.send(target.origin, {
        method: call.method as "GET",
        path,
        headers,
        body: call.body,
        // undici's own timers: an AbortSignal per call costs a timer and an exception object.
        headersTimeout: plan.backendTimeoutMs,
        bodyTimeout: plan.backendTimeoutMs,
      });
      return { kind: "response", response };
    } catch (error) {
      if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
        return { kind: "timeout", ms: plan.backendTimeoutMs };
      }
      return { kind: "error", message: `The backend could not be reached: ${(error as Error).message}` };
    }
  }

  /**
   * One request through the origin's pool, its body collected up to `maxBodyBytes`. undici's
   * dispatch API rather than `request()`: no Readable stream and async iterator per response,
   * which were most of the garbage a proxied call left behind.
   */
  private send(origin: string, options: Dispatcher.DispatchOptions): Promise<BackendResponse> {
    return new Promise((resolve, reject) => {
      this.pool(origin).dispatch(options, new CappedBodyHandler(this.maxBodyBytes, resolve, reject));
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.pools.values()].map((pool) => pool.close()));
    this.pools.clear();
  }

  private pool(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connections: 64, keepAliveTimeout: 30_000, pipelining: 1 });
      this.pools.set(origin, pool);
    }
    return pool;
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

/** Collects a response: status, headers and at most `max` bytes of body (the rest is not read). */
class CappedBodyHandler implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: BackendResponse["headers"] = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private settled = false;
  private readonly max: number;
  private readonly resolve: (response: BackendResponse) => void;
  private readonly reject: (error: Error) => void;

  constructor(max: number, resolve: (response: BackendResponse) => void, reject: (error: Error) => void) {
    this.max = max;
    this.resolve = resolve;
    this.reject = reject;
  }

  onRequestStart() {}

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
    if (this.settled) return; // our own abort after the cap
    this.settled = true;
    this.reject(error);
  }

  private finish(truncated: boolean) {
    if (this.settled) return;
    this.settled = true;
    const body = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size);
    this.resolve({
      status: this.status,
      headers: this.headers,
      body: truncated ? body.subarray(0, this.max) : body,
      ...(truncated ? { truncated } : {}),
    });
  }
}
