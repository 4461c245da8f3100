/**
 * Whether an error means the database could not be reached or went away mid-query (restarting,
 * stopped, unreachable), rather than refusing the query itself: the REST API then answers 503
 * with a message saying to try again, never a 500, and the control plane recovers by itself once
 * the database is back (the pool opens new connections).
 */

/** SQLSTATEs of a database that is down, shutting down, starting up, or out of connections. */
const UNAVAILABLE_CODES = new Set([
  "57P01", // admin_shutdown: the server is stopping (fast mode) and ended the session
  "57P02", // crash_shutdown: another backend crashed, or an immediate stop
  "57P03", // cannot_connect_now: starting up, shutting down, in recovery
  "53300", // too_many_connections
]);

/** Socket errors of a connection that could not be opened or was lost. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** node-postgres reports a lost connection with these messages and no code. */
const LOST_CONNECTION =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect)/;

/** True when `error`, or an error it wraps (drizzle wraps the driver's), is the database being unavailable. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === "string" && (code.startsWith("08") || UNAVAILABLE_CODES.has(code) || SOCKET_CODES.has(code))) {
      return true;
    }
    if (typeof message === "string" && LOST_CONNECTION.test(message)) return true;
    current = cause;
  }
  return false;
}
