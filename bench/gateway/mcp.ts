/**
 * The MCP requests of the gateway benchmark, over raw HTTP (undici), so what goes on the wire
 * is exactly what is written here: a stateless 2026-07-28 `tools/call`, a 2025 session
 * (`initialize`, `notifications/initialized`, then calls with `Mcp-Session-Id`), and a session
 * whose answers arrive on its GET stream (how @ivotoby/openapi-mcp-server answers tools/call).
 */
import { type Dispatcher, Pool, request } from "undici";

export const MODERN_VERSION = "2026-07-28";
export const LEGACY_VERSION = "2025-06-18";
export const ACCEPT = "application/json, text/event-stream";

export interface Pet {
  id: number;
  name: string;
}

/** Body of a `tools/call` of getPet; `id` may be the autocannon placeholder `"[<id>]"`. */
export function toolCallBody(id: string | number, petId: number, tool = "getPet", modern = false): string {
  const meta = modern
    ? {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      }
    : {};
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: tool, arguments: { petId }, ...meta },
  });
}

/** Headers of a stateless 2026-07-28 tools/list. */
export const LIST_HEADERS: Record<string, string> = {
  "content-type": "application/json",
  accept: ACCEPT,
  "mcp-protocol-version": MODERN_VERSION,
  "mcp-method": "tools/list",
};

/** Body of a stateless 2026-07-28 tools/list; `id` may be the placeholder a client replaces. */
export function toolsListBody(id: number | "__ID__"): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/list",
    params: {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  });
}

/** What a client presents to a protected endpoint: its API key, or an OAuth access token. */
export interface ClientCredential {
  apiKey?: string | undefined;
  bearerToken?: string | undefined;
}

/** Headers of a stateless 2026-07-28 tools/call, with the credential the endpoint asks for. */
export function modernHeaders(tool: string, credential: ClientCredential = {}): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: ACCEPT,
    "mcp-protocol-version": MODERN_VERSION,
    "mcp-method": "tools/call",
    "mcp-name": tool,
    ...(credential.apiKey ? { "x-atrium-key": credential.apiKey } : {}),
    ...(credential.bearerToken ? { authorization: `Bearer ${credential.bearerToken}` } : {}),
  };
}

/** The pet in a JSON-RPC tools/call response; throws when it is an error or has no pet in it. */
export function petOf(response: unknown): Pet {
  const result = (response as { result?: { isError?: boolean; content?: { type: string; text?: string }[] } })?.result;
  const text = result?.content?.find((block) => block.type === "text")?.text;
  if (!result || result.isError || text === undefined) {
    throw new Error(`not a successful tools/call result: ${JSON.stringify(response).slice(0, 500)}`);
  }
  // A GraphQL tool answers `{getPet: …}`, the GraphQL pass-through the whole `{data: {getPet: …}}`.
  const value = JSON.parse(text) as Pet & { getPet?: Pet; data?: { getPet?: Pet } };
  const pet = value.data?.getPet ?? value.getPet ?? value;
  if (typeof pet?.id !== "number") throw new Error(`the result has no pet: ${text.slice(0, 500)}`);
  return pet;
}

/** POSTs a JSON-RPC message and returns the parsed JSON answer (or SSE's last `data:`), failing on non-2xx. */
export async function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  dispatcher?: Pool,
): Promise<{ status: number; headers: Record<string, unknown>; json: unknown }> {
  const response = await request(url, { method: "POST", headers, body, dispatcher });
  const text = await response.body.text();
  if (response.statusCode < 200 || response.statusCode > 299) {
    throw new Error(`POST ${url} answered ${response.statusCode}: ${text.slice(0, 500)}`);
  }
  const contentType = String(response.headers["content-type"] ?? "");
  const payload = contentType.startsWith("text/event-stream")
    ? (text
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .at(-1)
        ?.slice(5) ?? "")
    : text;
  return {
    status: response.statusCode,
    headers: response.headers,
    json: payload.trim() ? JSON.parse(payload) : undefined,
  };
}

/** Body of `initialize` for a 2025 session; `id` may be autocannon's placeholder `"[<id>]"`. */
export function initializeBody(id: string | number, protocolVersion = LEGACY_VERSION): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "atrium-bench", version: "1" } },
  });
}

export const INITIALIZED_BODY = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });

/** Headers of every request of a 2025 session after `initialize`. */
export function sessionHeaders(
  sessionId: string,
  protocolVersion: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: ACCEPT,
    ...extra,
    "mcp-session-id": sessionId,
    "mcp-protocol-version": protocolVersion,
  };
}

/** Opens a 2025 session: initialize, then notifications/initialized. Returns the session id and protocol version. */
export async function openLegacySession(
  url: string,
  extraHeaders: Record<string, string> = {},
  dispatcher?: Pool,
): Promise<{ sessionId: string; protocolVersion: string }> {
  const base = { "content-type": "application/json", accept: ACCEPT, ...extraHeaders };
  const initialized = await postJson(url, base, initializeBody(0), dispatcher);
  const sessionId = initialized.headers["mcp-session-id"];
  if (typeof sessionId !== "string" || sessionId === "") throw new Error(`${url}: initialize gave no Mcp-Session-Id`);
  const protocolVersion = String(
    (initialized.json as { result?: { protocolVersion?: string } }).result?.protocolVersion ?? LEGACY_VERSION,
  );
  await postJson(url, sessionHeaders(sessionId, protocolVersion, extraHeaders), INITIALIZED_BODY, dispatcher);
  return { sessionId, protocolVersion };
}

/**
 * A session whose JSON-RPC responses arrive on its GET (SSE) stream while each POST gets 202:
 * `call` POSTs a request and resolves with the response that carries its id on the stream.
 */
export class StreamAnsweredSession {
  private readonly pending = new Map<string | number, (message: unknown) => void>();
  private readonly pool: Pool;
  private readonly url: string;
  private readonly headers: Record<string, string>;
  private stream: AbortController | undefined;

  private constructor(url: string, headers: Record<string, string>, connections: number) {
    this.url = url;
    this.headers = headers;
    this.pool = new Pool(new URL(url).origin, { connections, pipelining: 1 });
  }

  static async open(url: string, connections: number): Promise<StreamAnsweredSession> {
    const { sessionId, protocolVersion } = await openLegacySession(url);
    const session = new StreamAnsweredSession(url, sessionHeaders(sessionId, protocolVersion), connections);
    session.listen();
    // The server sends the stream's headers only with its first message, so the stream is live
    // once a ping comes back on it.
    for (let attempt = 1; ; attempt++) {
      try {
        await session.call(
          `ping-${attempt}`,
          JSON.stringify({ jsonrpc: "2.0", id: `ping-${attempt}`, method: "ping" }),
          250,
        );
        return session;
      } catch (error) {
        if (attempt >= 40) {
          await session.close();
          throw error;
        }
      }
    }
  }

  /** Opens the GET stream and dispatches each `data:` message to the call waiting for its id. */
  private listen(): void {
    this.stream = new AbortController();
    request(this.url, {
      method: "GET",
      headers: { ...this.headers, accept: "text/event-stream" },
      signal: this.stream.signal,
    }).then(
      (response) => this.dispatch(response),
      () => undefined, // not answering or aborted: the calls waiting on the stream time out
    );
  }

  private dispatch(response: Dispatcher.ResponseData): void {
    if (response.statusCode !== 200) return;
    let buffer = "";
    response.body.setEncoding("utf8");
    response.body.on("data", (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trim())
          .join("\n");
        if (!data) continue;
        const message = JSON.parse(data) as { id?: string | number };
        if (message.id === undefined) continue;
        this.pending.get(message.id)?.(message);
        this.pending.delete(message.id);
      }
    });
    response.body.on("error", () => undefined); // aborted on close
  }

  async call(id: string | number, body: string, timeoutMs = 10_000): Promise<unknown> {
    const answered = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`no answer to ${id} on the GET stream within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
    answered.catch(() => undefined); // a failed POST below is the error the caller sees
    const response = await this.pool.request({
      path: new URL(this.url).pathname,
      method: "POST",
      headers: this.headers,
      body,
    });
    await response.body.dump();
    if (response.statusCode !== 202 && response.statusCode !== 200) {
      this.pending.delete(id);
      throw new Error(`POST answered ${response.statusCode}`);
    }
    return answered;
  }

  async close(): Promise<void> {
    this.stream?.abort();
    await this.pool.close();
  }
}
