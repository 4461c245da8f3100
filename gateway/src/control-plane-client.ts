/**
 * The gateway's requests to the control plane's REST API (registration, health, reports), with
 * its token, short timeouts, and one connection pool whose connect timeout is short: a control
 * plane that does not accept a connection at once is treated as unreachable. Also the backoff
 * every retry of the sync uses.
 */
import { Agent, request } from "undici";

/** A reachable control plane accepts a connection at once; a longer wait means try another. */
const CONNECT_TIMEOUT_MS = 3_000;
const REQUEST_TIMEOUT_MS = 10_000;
const BACKOFF_MIN_MS = 500;
export const BACKOFF_MAX_MS = 30_000;

/** Exponential, with jitter so that gateways do not come back all at once. */
export function backoffMs(failures: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.min(failures, 10)) * (0.5 + Math.random() / 2);
}

/** An answer's JSON, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An answer; status 0 when the control plane could not be reached (`text` then says why). */
export interface ControlPlaneAnswer {
  status: number;
  text: string;
}

export class ControlPlaneClient {
  readonly url: string;
  readonly dispatcher = new Agent({ connect: { timeout: CONNECT_TIMEOUT_MS } });
  private readonly token: string;

  constructor(url: string, token: string) {
    this.url = url;
    this.token = token;
  }

  get authorization(): string {
    return `Bearer ${this.token}`;
  }

  /** Throws when the control plane cannot be reached. */
  async call(method: "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<ControlPlaneAnswer> {
    const response = await request(`${this.url}${path}`, {
      method,
      dispatcher: this.dispatcher,
      headers: {
        authorization: this.authorization,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      headersTimeout: REQUEST_TIMEOUT_MS,
      bodyTimeout: REQUEST_TIMEOUT_MS,
    });
    return { status: response.statusCode, text: await response.body.text() };
  }

  /** Like `call`, with an unreachable control plane as status 0. */
  async tryCall(method: "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<ControlPlaneAnswer> {
    return this.call(method, path, body).catch((error: Error) => ({ status: 0, text: error.message }));
  }

  async close(): Promise<void> {
    await this.dispatcher.close().catch(() => undefined);
  }
}
