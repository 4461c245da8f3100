/**
 * The control plane's REST API as the CLI sees it: the shared client of @atrium/contract (answers
 * parsed with the contract's schemas), with every failure turned into a CliError whose message
 * says what to fix. Paths are relative to `/api/v1`: `api.get("/services", …)` is
 * `GET <url>/api/v1/services`.
 */
import type { ProblemDocument } from "@atrium/contract/rest";
import {
  type RestAnswer,
  RestClient,
  type RestMethod,
  RestProblemError,
  type RestRequest,
  RestUnreachableError,
} from "@atrium/contract/rest-client";
import type { z } from "zod";
import { cliErrors } from "./errors.ts";

export { segment } from "@atrium/contract/rest-client";

export interface ApiClientOptions {
  /** The control plane, e.g. `http://127.0.0.1:5555`. */
  baseUrl: string;
  /** Bearer token (a login or an API token); none for `/login`. */
  token?: string | undefined;
}

export interface ApiClient {
  readonly baseUrl: string;
  get<S extends z.ZodType>(path: string, answer: S, more?: Omit<RestRequest<S>, "answer">): Promise<z.output<S>>;
  post<S extends z.ZodType | undefined = undefined>(path: string, body?: unknown, answer?: S): Promise<RestAnswer<S>>;
  put<S extends z.ZodType | undefined = undefined>(path: string, body: unknown, answer?: S): Promise<RestAnswer<S>>;
  delete(path: string): Promise<void>;
  send<S extends z.ZodType | undefined>(
    method: RestMethod,
    path: string,
    call?: RestRequest<S>,
  ): Promise<RestAnswer<S>>;
}

/** A problem document with the status it was answered with. */
export type Problem = ProblemDocument & { status: number };

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
  const rest = new RestClient({ baseUrl, token: options.token, timeoutMs: 300_000 });

  function failure(error: unknown): unknown {
    if (error instanceof RestUnreachableError) {
      if (error.status !== undefined) return cliErrors.unreadableAnswer(baseUrl, error.message);
      const code = error.codes.find((candidate) => CONNECTION_ERRORS.has(candidate));
      if (code) return cliErrors.unreachable(baseUrl, code);
      return error.cause ?? error;
    }
    if (!(error instanceof RestProblemError)) return error;
    const { status, text } = error;
    // Only an answer that says what went wrong is an Atrium problem document.
    const problem = typeof error.problem?.detail === "string" ? error.problem : undefined;
    // A refused bearer token means the stored login is no good; wrong passwords keep their own message.
    if (status === 401 && options.token && problem?.code !== "BAD_CREDENTIALS") return cliErrors.loginRejected(baseUrl);
    if (!problem) return cliErrors.unexpectedAnswer(baseUrl, status, text.slice(0, 120).trim());
    return cliErrors.problem(status, problem.code ?? `HTTP_${status}`, problemMessage({ ...problem, status }));
  }
  async function send<S extends z.ZodType | undefined>(method: RestMethod, path: string, call?: RestRequest<S>) {
    try {
      return await rest.send(method, path, call);
    } catch (error) {
      throw failure(error);
    }
  }

  return {
    baseUrl,
    send,
    get: (path, answer, more) => send("GET", path, { ...more, answer }) as never,
    post: (path, body, answer) => send("POST", path, { body, answer }),
    put: (path, body, answer) => send("PUT", path, { body, answer }),
    delete: async (path) => {
      await send("DELETE", path);
    },
  };
}
