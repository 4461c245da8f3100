/**
 * A small MCP client for the playground, over fetch from the browser straight to a gateway's
 * endpoint (CORS: ATRIUM_GATEWAY_CORS_ORIGINS on the gateway, ATRIUM_UI_GATEWAY_ORIGINS on the
 * control plane). Two eras: 2026-07-28 (stateless: every request carries the version and its
 * `_meta`) and 2025-11-25 (initialize first, then the session id on every request). Tools,
 * resources (and their templates) and prompts.
 */

export const ERAS = ["2026-07-28", "2025-11-25"] as const;
export type Era = (typeof ERAS)[number];

export interface Credential {
  kind: "apiKey" | "bearer";
  value: string;
}

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: JsonSchema;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  description?: string;
  title?: string;
  default?: unknown;
  items?: JsonSchema;
  [key: string]: unknown;
}

export interface CallResult {
  content?: { type: string; text?: string; mimeType?: string }[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** One item of a resources/read result: text, or base64 bytes. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

export interface PromptResult {
  description?: string;
  messages: {
    role: string;
    content: { type: string; text?: string; mimeType?: string; resource?: ResourceContents };
  }[];
}

/** What one exchange gave: the HTTP status, the time it took, and the JSON-RPC result or the failure in words. */
export interface Exchange<T> {
  status: number | undefined;
  latencyMs: number;
  result?: T;
  failure?: string;
}

const CLIENT_INFO = { name: "atrium-playground", version: "1" };

export class McpClient {
  private sessionId: string | undefined;
  private nextId = 1;

  private readonly url: string;
  private readonly era: Era;
  private readonly credential: Credential;

  constructor(url: string, era: Era, credential: Credential) {
    this.url = url;
    this.era = era;
    this.credential = credential;
  }

  listTools(): Promise<Exchange<{ tools: Tool[] }>> {
    return this.send("tools/list", {});
  }

  callTool(name: string, args: Record<string, unknown>): Promise<Exchange<CallResult>> {
    return this.send("tools/call", { name, arguments: args }, name);
  }

  listResources(): Promise<Exchange<{ resources: Resource[] }>> {
    return this.send("resources/list", {});
  }

  listResourceTemplates(): Promise<Exchange<{ resourceTemplates: ResourceTemplate[] }>> {
    return this.send("resources/templates/list", {});
  }

  readResource(uri: string): Promise<Exchange<{ contents: ResourceContents[] }>> {
    return this.send("resources/read", { uri }, uri);
  }

  listPrompts(): Promise<Exchange<{ prompts: Prompt[] }>> {
    return this.send("prompts/list", {});
  }

  getPrompt(name: string, args: Record<string, string>): Promise<Exchange<PromptResult>> {
    return this.send("prompts/get", { name, arguments: args }, name);
  }

  /** A request, after initializing in the 2025-11-25 era; `name` is the Mcp-Name header's (tool, URI or prompt). */
  private async send<T>(method: string, params: Record<string, unknown>, name?: string): Promise<Exchange<T>> {
    const opened = await this.open();
    if (opened) return opened;
    return this.request(method, params, name);
  }

  /** 2025-11-25: initialize once (and say initialized); a failure is returned as the exchange's. */
  private async open(): Promise<Exchange<never> | undefined> {
    if (this.era !== "2025-11-25" || this.sessionId) return undefined;
    const initialized = await this.request<{ protocolVersion: string }>("initialize", {
      protocolVersion: this.era,
      capabilities: {},
      clientInfo: CLIENT_INFO,
    });
    if (initialized.failure) return { ...initialized, result: undefined };
    await this.post({ jsonrpc: "2.0", method: "notifications/initialized" }, "notifications/initialized");
    return undefined;
  }

  private async request<T>(method: string, params: Record<string, unknown>, name?: string): Promise<Exchange<T>> {
    const id = this.nextId++;
    const withMeta =
      this.era === "2026-07-28"
        ? {
            ...params,
            _meta: {
              "io.modelcontextprotocol/protocolVersion": this.era,
              "io.modelcontextprotocol/clientCapabilities": {},
              "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
            },
          }
        : params;
    const started = performance.now();
    let response: Response;
    try {
      response = await this.post({ jsonrpc: "2.0", id, method, params: withMeta }, method, name);
    } catch {
      return {
        status: undefined,
        latencyMs: performance.now() - started,
        failure: `The gateway at ${this.url} did not answer: check the URL, that the gateway runs, and that it allows this page's origin (ATRIUM_GATEWAY_CORS_ORIGINS)`,
      };
    }
    const session = response.headers.get("mcp-session-id");
    if (session) this.sessionId = session;
    const message = await readMessage(response, id);
    const latencyMs = performance.now() - started;
    if (message?.error) return { status: response.status, latencyMs, failure: message.error.message };
    if (!response.ok || !message) {
      return {
        status: response.status,
        latencyMs,
        failure: `The gateway answered ${response.status} ${response.statusText}`.trim(),
      };
    }
    return { status: response.status, latencyMs, result: message.result as T };
  }

  private post(body: unknown, method: string, name?: string): Promise<Response> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": this.era,
    };
    if (this.era === "2026-07-28") {
      headers["mcp-method"] = method;
      if (name) headers["mcp-name"] = name;
    }
    if (this.sessionId) headers["mcp-session-id"] = this.sessionId;
    if (this.credential.value) {
      if (this.credential.kind === "apiKey") headers["x-atrium-key"] = this.credential.value;
      else headers.authorization = `Bearer ${this.credential.value}`;
    }
    return fetch(this.url, { method: "POST", headers, body: JSON.stringify(body), credentials: "omit" });
  }
}

interface Message {
  id?: unknown;
  /** Set on notifications and on the server's own requests, never on an answer. */
  method?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

/** The answer to request `id`: a JSON body, or the matching message of an event stream. */
async function readMessage(response: Response, id: number): Promise<Message | undefined> {
  const text = await response.text().catch(() => "");
  const type = response.headers.get("content-type") ?? "";
  const candidates = type.includes("text/event-stream")
    ? text
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
    : [text];
  for (const candidate of candidates) {
    try {
      const message = JSON.parse(candidate) as Message;
      // A notification (progress, a log message) or a server's request is not the answer, whatever its id.
      const answer = message && message.method === undefined;
      if (answer && (message.id === id || message.id === null || message.id === undefined)) return message;
    } catch {
      // Not JSON (a proxy's error page): the status says what happened.
    }
  }
  return undefined;
}
