/**
 * The 2025 session era as its clients (VS Code, Claude Desktop, Cursor) drive it, loaded with
 * autocannon: every connection first sends `initialize`, takes the `Mcp-Session-Id` of its
 * answer, sends `notifications/initialized` (and what the session is set up with, such as
 * `logging/setLevel`), and from then on only `tools/call` with that session id and
 * `MCP-Protocol-Version` — one session per connection, opened once on it. The
 * client accepts JSON and SSE answers alike (`Accept: application/json, text/event-stream`);
 * autocannon does not read bodies, so either is loaded the same way.
 */
import type { Client } from "autocannon";
import type { HttpTarget } from "./load.ts";
import { ACCEPT, INITIALIZED_BODY, initializeBody, LEGACY_VERSION, sessionHeaders } from "./mcp.ts";

/** A response header's value from a raw header list (names and values alternating). */
function headerOf(raw: string[], name: string): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]?.toLowerCase() === name) return raw[i + 1];
  return undefined;
}

/**
 * The autocannon target: each connection opens its own session, sends the `setup` requests in
 * it (e.g. `logging/setLevel`), then calls `callBody` (whose id is the placeholder) in it.
 * `extraHeaders` go on every request (a credential). The opening answers count among the run's
 * responses: a few per connection in a run of thousands.
 */
export function sessionPerConnection(
  url: string,
  callBody: string,
  options: { setup?: string[]; extraHeaders?: Record<string, string> } = {},
): HttpTarget {
  const extraHeaders = options.extraHeaders ?? {};
  const openingHeaders = { "content-type": "application/json", accept: ACCEPT, ...extraHeaders };
  return {
    url,
    method: "POST",
    headers: openingHeaders,
    body: initializeBody("[<id>]"),
    setupClient: (client: Client) => {
      // What goes out after each answer, in order; the last one stays.
      const next = [INITIALIZED_BODY, ...(options.setup ?? []), callBody];
      let session: Record<string, string> | undefined;
      const onHeaders = ({ headers }: { headers: string[] }) => {
        // Without a session id the calls go out without one and come back 400: counted as non-2xx.
        session ??= sessionHeaders(headerOf(headers, "mcp-session-id") ?? "", LEGACY_VERSION, extraHeaders);
        client.setHeadersAndBody(session, next.shift() ?? callBody);
        if (next.length === 0) client.removeListener("headers", onHeaders);
      };
      client.on("headers", onHeaders);
    },
  };
}
