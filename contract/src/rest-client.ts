/**
 * The one HTTP client of the control plane's REST API (`/api/v1`), on undici, for the CLI, the
 * operator and the gateway. It owns the base URL, the bearer token, JSON in and out, timeouts,
 * and reading answers: a success is parsed with the route's contract schema, a failure becomes a
 * RestProblemError carrying the problem document (or the raw text when it is none), and a
 * request that got no answer becomes a RestUnreachableError. Each caller turns these into its own
 * coded errors.
 */
import { type Dispatcher, request } from "undici";
import type { z } from "zod";
import { type ProblemDocument, problemDocument } from "./rest/problem.ts";
import { injectActive } from "./telemetry.ts";

export const API_PREFIX = "/api/v1";

export interface RestClientOptions {
  /** The control plane, e.g. `https://atrium.example.com` (a path is kept: the API is below it). */
  baseUrl: string;
  /** Bearer token, or where to read it (a rotated Secret); none for `/login`. */
  token?: string | (() => string | Promise<string>) | undefined;
  /** Time allowed for the answer's headers and, again, for its body. */
  timeoutMs?: number;
  /** A pool or agent of the caller's (connection count, connect timeout). */
  dispatcher?: Dispatcher;
  /** Called after every answered request, e.g. for metrics. */
  onResponse?: (method: string, status: number) => void;
}

export type RestMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface RestRequest<S extends z.ZodType | undefined> {
  /** Parses a successful answer; without it the answer's JSON is not read. */
  answer?: S;
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, e.g. an OpenAPI document upload. */
  rawBody?: { text: string; contentType: string };
  /** Statuses that are answers rather than failures (e.g. 404 for "gone"): resolved as undefined. */
  tolerate?: number[];
}

export type RestAnswer<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The control plane answered with an error status. */
export class RestProblemError extends Error {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** The answer as a problem document, when it was JSON of that shape. */
  readonly problem: ProblemDocument | undefined;
  /** The answer's text, for what is not a problem document. */
  readonly text: string;

  constructor(method: string, path: string, status: number, problem: ProblemDocument | undefined, text: string) {
    super(
      `${method} ${path} answered ${status}: ${problem?.detail ?? problem?.title ?? (text.slice(0, 200) || "no detail")}`,
    );
    this.name = "RestProblemError";
    this.method = method;
    this.path = path;
    this.status = status;
    this.problem = problem;
    this.text = text;
  }
}

/** Nothing usable was answered: the connection failed or timed out, or a success was not the contract's shape. */
export class RestUnreachableError extends Error {
  /** The Node and undici error codes (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, …) of the error and its causes. */
  readonly codes: string[];
  /** The answer's status when there was one that the contract does not describe. */
  readonly status: number | undefined;

  constructor(message: string, options: { codes?: string[]; status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = "RestUnreachableError";
    this.codes = options.codes ?? [];
    this.status = options.status;
  }
}

/** The error codes of a failed request: the error's own, its cause's and those of an AggregateError's errors. */
export function errorCodes(error: unknown): string[] {
  const candidates = [error, (error as { cause?: unknown }).cause, ...((error as AggregateError).errors ?? [])];
  return candidates
    .map((candidate) => (candidate as { code?: unknown } | undefined)?.code)
    .filter((code): code is string => typeof code === "string");
}

/** The answer as a problem document, or undefined when it is not JSON of that shape. */
export function readProblem(text: string): ProblemDocument | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = problemDocument.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** `http://host:port[/path]` without a trailing slash; throws a TypeError naming what is wrong. */
export function normalizeBaseUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TypeError(`'${url}' is not an http:// or https:// URL`);
  }
  return parsed.toString().replace(/\/+$/, "");
}

/** One path segment, encoded: an id can never walk to another route. */
export function segment(value: string | number): string {
  return encodeURIComponent(String(value));
}

export class RestClient {
  readonly baseUrl: string;
  readonly #options: RestClientOptions;

  constructor(options: RestClientOptions) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    this.#options = options;
  }

  /** The same control plane with another token. */
  withToken(token: RestClientOptions["token"]): RestClient {
    return new RestClient({ ...this.#options, token });
  }

  get<S extends z.ZodType>(path: string, answer: S, more: Omit<RestRequest<S>, "answer"> = {}) {
    return this.send("GET", path, { ...more, answer });
  }

  post<S extends z.ZodType | undefined = undefined>(path: string, body?: unknown, answer?: S) {
    return this.send("POST", path, { body, ...(answer ? { answer } : {}) } as RestRequest<S>);
  }

  put<S extends z.ZodType | undefined = undefined>(path: string, body: unknown, answer?: S) {
    return this.send("PUT", path, { body, ...(answer ? { answer } : {}) } as RestRequest<S>);
  }

  /** DELETE; with `tolerate: [404]`, false when it was already gone. */
  async delete(path: string, more: Omit<RestRequest<undefined>, "answer"> = {}): Promise<boolean> {
    const { status } = await this.exchange("DELETE", path, more);
    return !(more.tolerate ?? []).includes(status);
  }

  /** A request whose successful answer is parsed with `answer`; tolerated statuses resolve as undefined. */
  async send<S extends z.ZodType | undefined>(
    method: RestMethod,
    path: string,
    call: RestRequest<S> = {},
  ): Promise<RestAnswer<S>> {
    const { status, text } = await this.exchange(method, path, call);
    if ((call.tolerate ?? []).includes(status) || !call.answer) return undefined as RestAnswer<S>;
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      throw new RestUnreachableError(`${method} ${path} answered ${status} with something other than JSON`, {
        status,
      });
    }
    const parsed = call.answer.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new RestUnreachableError(
        `${method} ${path} answered ${status} with something the contract does not describe` +
          (issue ? ` (${issue.path.join(".") || "the answer"}: ${issue.message})` : ""),
        { status },
      );
    }
    return parsed.data as RestAnswer<S>;
  }

  /** The status and text of a request; throws for failures and for no answer at all. */
  async exchange(method: RestMethod, path: string, call: Omit<RestRequest<undefined>, "answer"> = {}) {
    const url = new URL(`${this.baseUrl}${API_PREFIX}${path}`);
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { accept: "application/json, application/problem+json" };
    const { token, timeoutMs = 15_000, dispatcher, onResponse } = this.#options;
    const bearer = typeof token === "function" ? await token() : token;
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    // Within a traced operation (the operator's reconcile), the control plane continues its trace.
    injectActive(headers);
    let body: string | undefined;
    if (call.rawBody) {
      headers["content-type"] = call.rawBody.contentType;
      body = call.rawBody.text;
    } else if (call.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(call.body);
    }
    let status: number;
    let text: string;
    try {
      const response = await request(url, {
        method,
        headers,
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(dispatcher ? { dispatcher } : {}),
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      const codes = errorCodes(error);
      const reason = error instanceof Error && error.message ? error.message : String(codes[0] ?? error);
      throw new RestUnreachableError(`${method} ${path} got no answer: ${reason}`, { codes, cause: error });
    }
    onResponse?.(method, status);
    if (status >= 400 && !(call.tolerate ?? []).includes(status)) {
      throw new RestProblemError(method, path, status, readProblem(text), text);
    }
    return { status, text };
  }
}
