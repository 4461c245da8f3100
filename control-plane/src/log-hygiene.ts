/**
 * What may leave the process in logs and problem documents. Failed-query errors (drizzle,
 * pg) carry the statement's parameters — password and token hashes among them — and the row's
 * values in `detail`: the log keeps the SQL and the PostgreSQL error code only. Request URLs
 * are logged without their query string. Paths of the server's disk are cut out of whatever a
 * client is shown.
 */
import { homedir } from "node:os";
import { resolve } from "node:path";

interface ErrorLike {
  name?: string;
  message?: string;
  stack?: string;
  code?: unknown;
  query?: unknown;
  cause?: unknown;
  [key: string]: unknown;
}

/** pg's error fields that never hold row values. */
const SAFE_DATABASE_FIELDS = ["code", "severity", "constraint", "table", "column", "schema", "routine"] as const;

/** pino serializer for `err`: the error's type, message and stack, minus any query parameters. */
export function serializeError(
  error: unknown,
  depth = 0,
): { type: string; message: string; stack: string; [key: string]: unknown } {
  if (typeof error !== "object" || error === null) return { type: typeof error, message: String(error), stack: "" };
  const e = error as ErrorLike;
  const isQueryError = typeof e.query === "string";
  const message = isQueryError ? `Failed query: ${e.query}` : withoutParameters(String(e.message ?? ""));
  const serialized: { type: string; message: string; stack: string; [key: string]: unknown } = {
    type: e.name ?? e.constructor?.name ?? "Error",
    message,
    stack: typeof e.stack === "string" ? e.stack.replace(String(e.message ?? ""), message) : "",
  };
  for (const field of SAFE_DATABASE_FIELDS) if (typeof e[field] === "string") serialized[field] = e[field];
  if (e.cause !== undefined && depth < 3) serialized.cause = serializeError(e.cause, depth + 1);
  return serialized;
}

/** Drizzle writes "Failed query: …\nparams: …" into messages: everything from "params:" on goes. */
function withoutParameters(message: string): string {
  return message.replace(/\n?params:[\s\S]*$/, "");
}

/** pino serializer for `req`: no query string, no headers. */
export function serializeRequest(request: { method?: string; url?: string; socket?: { remotePort?: number } | null }): {
  method?: string;
  url?: string;
  host?: string;
  remoteAddress?: string;
  remotePort?: number;
} {
  // fastify hands its own request (with `host` and `ip`), typed as the raw one.
  const { host, ip } = request as { host?: string; ip?: string };
  return {
    method: request.method,
    url: withoutQuery(request.url ?? ""),
    host,
    remoteAddress: ip,
    remotePort: request.socket?.remotePort,
  };
}

export function withoutQuery(url: string): string {
  const index = url.indexOf("?");
  return index === -1 ? url : url.slice(0, index);
}

/** Folders whose paths a client must not learn: the process's, the code's, the user's home. */
const SERVER_PATHS = [process.cwd(), resolve(import.meta.dirname, "..", ".."), homedir()]
  .filter((path) => path.length > 1)
  .sort((a, b) => b.length - a.length);

/** Replaces the server's own paths in a text shown to a client with `<server path>`. */
export function withoutServerPaths(text: string, extraPaths: string[] = []): string {
  let result = text;
  for (const path of [...extraPaths.filter((p) => p.length > 1), ...SERVER_PATHS]) {
    result = result.replaceAll(path, "<server path>");
  }
  return result;
}
