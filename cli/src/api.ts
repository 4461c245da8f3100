/**
 * The control plane's REST API as the CLI sees it: JSON in, JSON out, and every failure turned
 * into a CliError whose message says what to fix. Paths are relative to `/api/v1`:
 * `api.get("/services")` is `GET <url>/api/v1/services`.
 */
import { type Dispatcher, request } from "undici";
import { type CliError, cliErrors } from "./errors.ts";

export const API_PREFIX = "/api/v1";

export interface ApiClientOptions {
  /** The control plane, e.g. `http://127.0.0.1:5555`. */
  baseUrl: string;
  /** Bearer token (a login or an API token); none for `/login`. */
  token?: string | undefined;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, e.g. an OpenAPI document upload. */
  rawBody?: { text: string; contentType: string };
}

export interface ApiClient {
  readonly baseUrl: string;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body: unknown, options?: RequestOptions): Promise<T>;
  delete(path: string, options?: RequestOptions): Promise<void>;
  send<T>(method: Dispatcher.HttpMethod, path: string, options?: RequestOptions): Promise<T>;
}

/** An RFC 9457 problem as the control plane renders it. */
export interface Problem {
  status: number;
  code?: string;
  detail?: string;
  errors?: { field: string; message: string }[];
}

/** One path segment, encoded: an id can never walk to another route. */
export function segment(value: string | number): string {
  return encodeURIComponent(String(value));
}

/** `http://host:port` without a trailing slash; a usage error when it is not an http(s) URL. */
export function normalizeBaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw cliErrors.usage(`'${url}' is not a URL: give the control plane as http://host:port`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw cliErrors.usage(`'${url}' is not an http:// or https:// URL: give the control plane as http://host:port`);
  }
  return parsed.toString().replace(/\/+$/, "");
}

/** Errors of the connection itself (nothing was answered), by Node and undici code. */
const CONNECTION_ERRORS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
  "EPIPE",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_CLOSED",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "SELF_SIGNED_CERT_IN_CHAIN",
]);

function connectionErrorCode(error: unknown): string | undefined {
  const candidates = [error, (error as { cause?: unknown }).cause, ...((error as AggregateError).errors ?? [])];
  for (const candidate of candidates) {
    const code = (candidate as { code?: unknown } | undefined)?.code;
    if (typeof code === "string" && CONNECTION_ERRORS.has(code)) return code;
  }
  return undefined;
}

/** What to do about a problem, where its detail does not already say it. */
function hintFor(problem: Problem): string | undefined {
  switch (problem.code) {
    case "BAD_CREDENTIALS":
      return "check them and try again";
    case "NOT_FOUND":
      return "check the id; the matching `list` command shows them";
    case "FORBIDDEN":
      return "log in as a user with that role";
  }
  return undefined;
}

/** The problem's detail, the field errors it does not already spell out, and a hint. */
export function problemMessage(problem: Problem): string {
  const detail = problem.detail ?? `The control plane answered ${problem.status}`;
  const fields = (problem.errors ?? [])
    .map((error) => `${error.field}: ${error.message}`)
    .filter((line) => !detail.includes(line));
  const hint = hintFor(problem);
  const failed = problem.status >= 500 ? `The control plane failed (${problem.status}): ` : "";
  return `${failed}${detail}${hint ? ` (${hint})` : ""}${fields.map((line) => `\n  ${line}`).join("")}`;
}

export function apiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = normalizeBaseUrl(options.baseUrl);

  async function send<T>(method: Dispatcher.HttpMethod, path: string, call: RequestOptions = {}): Promise<T> {
    const url = new URL(`${baseUrl}${API_PREFIX}${path}`);
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { accept: "application/json, application/problem+json" };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (call.rawBody) {
      headers["content-type"] = call.rawBody.contentType;
      body = call.rawBody.text;
    } else if (call.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(call.body);
    }
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, { method, headers, body });
    } catch (error) {
      const code = connectionErrorCode(error);
      if (code) throw cliErrors.unreachable(baseUrl, code);
      throw error;
    }
    const text = await response.body.text();
    if (response.statusCode < 400) return (text ? JSON.parse(text) : undefined) as T;
    throw failure(response.statusCode, text);
  }

  function failure(status: number, text: string): CliError {
    let problem: Problem | undefined;
    try {
      const parsed = JSON.parse(text) as Problem;
      if (parsed && typeof parsed === "object" && typeof parsed.detail === "string") problem = { ...parsed, status };
    } catch {
      // not JSON: reported below as an unexpected answer
    }
    // A refused bearer token means the stored login is no good; wrong passwords keep their own message.
    if (status === 401 && options.token && problem?.code !== "BAD_CREDENTIALS") return cliErrors.loginRejected(baseUrl);
    if (!problem) return cliErrors.unexpectedAnswer(baseUrl, status, text.slice(0, 120).trim());
    return cliErrors.problem(status, problem.code ?? `HTTP_${status}`, problemMessage(problem));
  }

  return {
    baseUrl,
    send,
    get: (path, more) => send("GET", path, more),
    post: (path, body, more) => send("POST", path, { ...more, body }),
    put: (path, body, more) => send("PUT", path, { ...more, body }),
    delete: async (path, more) => {
      await send("DELETE", path, more);
    },
  };
}
