/** The part of autocannon's programmatic API the gateway benchmark uses (the package ships no types). */
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  interface Options {
    url: string;
    method?: "GET" | "POST";
    headers?: Record<string, string>;
    /** `[<id>]` in it is replaced by a fresh id per request when `idReplacement` is set. */
    body?: string;
    idReplacement?: boolean;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds before a request counts as a timeout. */
    timeout?: number;
    pipelining?: number;
    /** Called with each connection's client before it connects (see `Client`). */
    setupClient?: (client: Client) => void;
  }

  /** One connection of a run: its next requests can be changed while it runs. */
  export interface Client extends EventEmitter {
    /** The request sent from now on, in place of the run's `headers` and `body`. */
    setHeadersAndBody(headers: Record<string, string>, body: string): void;
    /** Each response's status line and headers, before its body; `headers` alternate name and value. */
    on(event: "headers", listener: (response: { statusCode: number; headers: string[] }) => void): this;
    removeListener(event: "headers", listener: (response: { statusCode: number; headers: string[] }) => void): this;
  }

  interface Result {
    totalCompletedRequests: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
    /** Seconds. */
    duration: number;
  }

  interface Instance extends EventEmitter, PromiseLike<Result> {
    on(event: "response", listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
