/**
 * The gateway's requests to the control plane's REST API (registration, health, reports): the
 * shared client of @atrium/contract with its token, short timeouts, and one connection pool
 * whose connect timeout is short: a control plane that does not accept a connection at once is
 * treated as unreachable. Also the backoff policy every retry of the sync uses (with the shared
 * `backoffDelay`).
 */
import type { BackoffPolicy } from "@atrium/contract/backoff";
import { RestClient, RestProblemError } from "@atrium/contract/rest-client";
import { Agent } from "undici";

/** A reachable control plane accepts a connection at once; a longer wait means try another. */
const CONNECT_TIMEOUT_MS = 3_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** Retries of the stream and the reports: 1 s after the first failure, doubling up to 30 s, jittered. */
export const SYNC_BACKOFF: BackoffPolicy = { baseMs: 500, maxMs: 30_000 };

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
  /** The shared REST client (paths below /api/v1) on this pool: answers read with the contract. */
  readonly rest: RestClient;
  private readonly token: string;

  constructor(url: string, token: string) {
    this.url = url;
    this.token = token;
    this.rest = new RestClient({ baseUrl: url, token, timeoutMs: REQUEST_TIMEOUT_MS, dispatcher: this.dispatcher });
  }

  get authorization(): string {
    return `Bearer ${this.token}`;
  }

  /** Any answer, refusals included, for a path below /api/v1; throws when the control plane cannot be reached. */
  async call(method: "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<ControlPlaneAnswer> {
    try {
      return await this.rest.exchange(method, path, { body });
    } catch (error) {
      if (error instanceof RestProblemError) return { status: error.status, text: error.text };
      throw error;
    }
  }

  /** Like `call`, with an unreachable control plane as status 0. */
  async tryCall(method: "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<ControlPlaneAnswer> {
    return this.call(method, path, body).catch((error: Error) => ({ status: 0, text: error.message }));
  }

  async close(): Promise<void> {
    await this.dispatcher.close().catch(() => undefined);
  }
}
