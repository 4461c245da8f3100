/**
 * The control plane's REST API (`/api/v1`) as the operator uses it: JSON over an undici Pool,
 * authenticated with the operator's API token. A refused token is read again once (it may have
 * been rotated); network failures become CONTROL_PLANE_UNREACHABLE and refusals keep the
 * problem document's code and detail.
 */
import { Pool } from "undici";
import { describeError, errors } from "../errors.ts";
import type { TokenSource } from "../token.ts";

/** What every record the operator manages has in common. */
export interface ControlPlaneRecord {
  id: string | number;
  name: string;
  [field: string]: unknown;
}

export interface ControlPlaneClientOptions {
  /** Base URL, e.g. https://atrium.example.com (the API is under /api/v1). */
  url: string;
  token: TokenSource;
  connections?: number;
  timeoutMs?: number;
  /** Called after every answered request, for metrics. */
  onResponse?: (method: string, status: number) => void;
}

interface Problem {
  code?: string;
  detail?: string;
  title?: string;
}

export class ControlPlaneClient {
  readonly #pool: Pool;
  readonly #prefix: string;
  readonly #token: TokenSource;
  readonly #timeoutMs: number;
  readonly #onResponse: ((method: string, status: number) => void) | undefined;

  constructor(options: ControlPlaneClientOptions) {
    const url = new URL(options.url);
    this.#prefix = `${url.pathname.replace(/\/+$/, "")}/api/v1`;
    this.#token = options.token;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#onResponse = options.onResponse;
    this.#pool = new Pool(url.origin, {
      connections: options.connections ?? 16,
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
    });
  }

  /** GET a record; undefined when it does not exist (404). */
  async get<T = ControlPlaneRecord>(path: string): Promise<T | undefined> {
    const response = await this.#send("GET", path, undefined, [404]);
    return response.status === 404 ? undefined : (response.body as T);
  }

  async list<T = ControlPlaneRecord>(collection: string): Promise<T[]> {
    const response = await this.#send("GET", collection);
    return (response.body as { items: T[] }).items;
  }

  async create<T = ControlPlaneRecord>(collection: string, body: unknown): Promise<T> {
    return (await this.#send("POST", collection, body)).body as T;
  }

  async replace<T = ControlPlaneRecord>(path: string, body: unknown): Promise<T> {
    return (await this.#send("PUT", path, body)).body as T;
  }

  async post<T = ControlPlaneRecord>(path: string, body?: unknown): Promise<T> {
    return (await this.#send("POST", path, body)).body as T;
  }

  /** DELETE a record; false when it was already gone (404). */
  async remove(path: string): Promise<boolean> {
    return (await this.#send("DELETE", path, undefined, [404])).status !== 404;
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }

  async #send(
    method: "GET" | "POST" | "PUT" | "DELETE",
    path: string,
    body?: unknown,
    accepted: number[] = [],
  ): Promise<{ status: number; body: unknown }> {
    let response = await this.#attempt(method, path, body);
    if (response.status === 401) {
      // The Secret may hold a rotated token by now: read it again once.
      this.#token.invalidate();
      response = await this.#attempt(method, path, body);
    }
    if ((response.status >= 200 && response.status < 300) || accepted.includes(response.status)) return response;
    const problem = (response.body ?? {}) as Problem;
    const detail = problem.detail ?? problem.title ?? "no detail";
    if (response.status === 502 || response.status === 503 || response.status === 504) {
      throw errors.controlPlaneUnreachable(`${method} ${path} answered ${response.status}: ${detail}`);
    }
    throw errors.controlPlaneRejected(method, path, response.status, problem.code ?? "UNKNOWN", detail);
  }

  async #attempt(method: string, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
    const token = await this.#token.get();
    let response: Awaited<ReturnType<Pool["request"]>>;
    try {
      response = await this.#pool.request({
        method: method as "GET",
        path: `${this.#prefix}${path}`,
        headers: {
          authorization: `Bearer ${token}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      });
    } catch (error) {
      throw errors.controlPlaneUnreachable(describeError(error));
    }
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      throw errors.controlPlaneUnreachable(describeError(error));
    }
    this.#onResponse?.(method, response.statusCode);
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = { detail: text.slice(0, 500) };
    }
    return { status: response.statusCode, body: parsed };
  }
}
