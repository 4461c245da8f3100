/**
 * Calls backends: one keep-alive undici Pool per backend origin, the plan's header policy and
 * backend secret applied, a timeout that yields a gateway-generated 504, and a cap on how much
 * of a response is read.
 */
import type { CompiledExposition } from "@atrium/control-plane/stream";
import { Pool, errors as undiciErrors } from "undici";
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
      const response = await this.pool(target.origin).request({
        method: call.method as "GET",
        path,
        headers,
        body: call.body,
        // undici's own timers: an AbortSignal per call costs a timer and an exception object.
        headersTimeout: plan.backendTimeoutMs,
        bodyTimeout: plan.backendTimeoutMs,
      });
      const body = await readCapped(response.body, this.maxBodyBytes);
      return { kind: "response", response: { status: response.statusCode, headers: response.headers, body } };
    } catch (error) {
      if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
        return { kind: "timeout", ms: plan.backendTimeoutMs };
      }
      if (error instanceof undiciErrors.UndiciError)
        return { kind: "error", message: `The backend could not be reached: ${error.message}` };
      return { kind: "error", message: `The backend could not be reached: ${(error as Error).message}` };
    }
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

/** Reads at most `max` bytes; the result mapping cuts (and marks) anything over its own limit. */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= max) {
      body.destroy();
      return Buffer.concat(chunks).subarray(0, max);
    }
  }
  return Buffer.concat(chunks, size);
}
