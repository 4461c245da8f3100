/**
 * Protocol versions and the JSON-RPC shapes the gateway speaks. Two eras: 2026-07-28
 * (stateless, `server/discover`, per-request `_meta`) and the 2025 session-based versions.
 */
export const MODERN_VERSION = "2026-07-28";
export const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;
export const LATEST_LEGACY_VERSION = "2025-11-25";
/** Everything an endpoint answers to, newest first (`server/discover` → `supportedVersions`). */
export const SUPPORTED_VERSIONS = [MODERN_VERSION, ...LEGACY_VERSIONS];
/**
 * Deepest nesting of objects and arrays in a request body (the JSON-RPC envelope takes 3 of
 * them: message, params, arguments); deeper values would overflow the stack of what walks them.
 */
export const MAX_REQUEST_DEPTH = 64;
/** Only 2025-03-26 allows JSON-RPC batches. */
export const BATCHING_VERSION = "2025-03-26";

export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  /** 2026-07-28: the request's log level; without it the server sends no `notifications/message`. */
  logLevel: "io.modelcontextprotocol/logLevel",
} as const;

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id?: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

export const ERROR = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  /** Legacy-era session and transport errors, as the official SDK sends them. */
  badRequest: -32000,
  sessionNotFound: -32001,
  /** Legacy-era "resource not found" (2025-11-25); the modern era uses -32602. */
  resourceNotFound: -32002,
  /** 2025-11-25: the call needs the user to open a URL first (URL-mode elicitation); the modern era answers input_required instead. */
  urlElicitationRequired: -32042,
  headerMismatch: -32020,
  missingCapability: -32021,
  unsupportedVersion: -32022,
} as const;

/** A JSON-RPC error answer together with the HTTP status it travels with. */
export class McpError extends Error {
  readonly code: number;
  readonly httpStatus: number;
  readonly data: unknown;

  constructor(code: number, message: string, httpStatus = 200, data?: unknown) {
    super(message);
    this.code = code;
    this.httpStatus = httpStatus;
    this.data = data;
  }
}

export function errorResponse(id: JsonRpcId | null | undefined, code: number, message: string, data?: unknown) {
  return {
    jsonrpc: "2.0" as const,
    id: id ?? null,
    error: data === undefined ? { code, message } : { code, message, data },
  };
}

export function resultResponse(id: JsonRpcId, result: unknown) {
  return { jsonrpc: "2.0" as const, id, result };
}

export function isJsonRpcRequest(value: unknown): value is JsonRpcRequest {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  return (
    message.jsonrpc === "2.0" &&
    typeof message.method === "string" &&
    (message.params === undefined ||
      (typeof message.params === "object" && message.params !== null && !Array.isArray(message.params))) &&
    (message.id === undefined || typeof message.id === "string" || typeof message.id === "number")
  );
}

/** A JSON-RPC response (or a notification's answer-like shape) sent to the server: accepted and ignored. */
export function isResponseOrNotificationLike(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Record<string, unknown>;
  return message.jsonrpc === "2.0" && message.method === undefined && ("result" in message || "error" in message);
}
