/**
 * MCP 2026-07-28: stateless. Every request carries its protocol version, capabilities and
 * client info in `params._meta`, and the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`
 * headers must agree with the body. Checks run in the order the conformance suite expects.
 */
import type { IncomingHttpHeaders } from "node:http";
import { serializedOnce } from "../registry.ts";
import { type DispatchContext, dispatchShared } from "./dispatch.ts";
import { ERROR, type JsonRpcRequest, McpError, META, MODERN_VERSION, SUPPORTED_VERSIONS } from "./protocol.ts";

export const SERVER_INFO = { name: "atrium-gateway", version: "0.1.0" };
const SERVER_META = { [META.serverInfo]: SERVER_INFO };

/** Lists are the same for everyone holding the endpoint's credential; clients may cache them this long. */
const LIST_TTL_MS = 60_000;
const LIST_METHODS = new Set([
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);
/** Methods of the legacy era that the modern era removed. */
const REMOVED = new Set(["initialize", "ping", "logging/setLevel", "notifications/initialized"]);

/** `=?base64?…?=` values carry non-ASCII text; everything else is compared trimmed. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  const encoded = value?.startsWith("=?") ? /^=\?base64\?(.*)\?=$/.exec(value) : null;
  return encoded ? Buffer.from(encoded[1] ?? "", "base64").toString("utf8") : value;
}

function metaOf(request: JsonRpcRequest): Record<string, unknown> | undefined {
  const meta = request.params?._meta;
  return typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>) : undefined;
}

/** Whether a request is of the modern era (no session, and a modern header or `_meta`). */
export function isModern(request: JsonRpcRequest, headers: IncomingHttpHeaders): boolean {
  if (headers["mcp-session-id"] !== undefined) return false;
  const version = headerValue(headers, "mcp-protocol-version");
  if (version === MODERN_VERSION) return true;
  const meta = metaOf(request);
  if (meta && META.protocolVersion in meta) return true;
  // Legacy clients open with an initialize carrying neither the modern header nor _meta.
  if (request.method === "initialize") return false;
  // A legacy version header without _meta is a legacy client that lost its session.
  return version === undefined
    ? request.method === "server/discover"
    : !(SUPPORTED_VERSIONS as string[]).includes(version);
}

export async function handleModern(
  request: JsonRpcRequest,
  headers: IncomingHttpHeaders,
  context: Omit<DispatchContext, "era" | "protocolVersion">,
  cacheScope: "public" | "private",
): Promise<unknown> {
  const headerVersion = headerValue(headers, "mcp-protocol-version");
  if (headerVersion === undefined) {
    throw new McpError(ERROR.headerMismatch, "The MCP-Protocol-Version header is required (2026-07-28)", 400);
  }
  const meta = metaOf(request);
  const version = meta?.[META.protocolVersion];
  const capabilities = meta?.[META.clientCapabilities];
  if (typeof version !== "string" || typeof capabilities !== "object" || capabilities === null) {
    throw new McpError(
      ERROR.invalidParams,
      `params._meta must carry "${META.protocolVersion}" and "${META.clientCapabilities}"`,
      400,
    );
  }
  if (headerVersion !== version) {
    throw new McpError(
      ERROR.headerMismatch,
      `MCP-Protocol-Version header (${headerVersion}) and _meta (${version}) disagree`,
      400,
    );
  }
  if (version !== MODERN_VERSION) {
    throw new McpError(ERROR.unsupportedVersion, `Unsupported protocol version ${version}`, 400, {
      supported: SUPPORTED_VERSIONS,
      requested: version,
    });
  }
  const method = headerValue(headers, "mcp-method");
  if (method !== request.method) {
    throw new McpError(
      ERROR.headerMismatch,
      `Mcp-Method header (${method ?? "missing"}) must equal the method ${request.method}`,
      400,
    );
  }
  const named =
    request.method === "tools/call" || request.method === "prompts/get"
      ? request.params?.name
      : request.method === "resources/read"
        ? request.params?.uri
        : undefined;
  if (named !== undefined) {
    const name = headerValue(headers, "mcp-name");
    if (name !== named)
      throw new McpError(
        ERROR.headerMismatch,
        `Mcp-Name header (${name ?? "missing"}) must equal ${String(named)}`,
        400,
      );
  }

  const params = request.params ?? {};
  if (request.method === "server/discover") {
    return {
      resultType: "complete",
      supportedVersions: SUPPORTED_VERSIONS,
      capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
      _meta: SERVER_META,
      ttlMs: LIST_TTL_MS,
      cacheScope,
    };
  }
  if (REMOVED.has(request.method)) {
    throw new McpError(ERROR.methodNotFound, `${request.method} does not exist in protocol ${MODERN_VERSION}`, 404);
  }
  if (request.method === "tools/list" && params.cursor === undefined) {
    return serializedOnce(context.served, "modern tools/list", () =>
      frame(request.method, { tools: context.served.toolset.tools }, cacheScope),
    );
  }
  const result = await dispatchShared(request.method, params, {
    ...context,
    era: "modern",
    protocolVersion: MODERN_VERSION,
  });
  if (result === undefined) throw new McpError(ERROR.methodNotFound, `Method not found: ${request.method}`, 404);
  return frame(request.method, result as Record<string, unknown>, cacheScope);
}

/** A shared method's result in the modern era's frame: `resultType`, caching hints for lists, server info in `_meta`. */
function frame(method: string, result: Record<string, unknown>, cacheScope: "public" | "private") {
  const meta = result._meta as Record<string, unknown> | undefined;
  const framed: Record<string, unknown> = { ...result, resultType: "complete" };
  if (LIST_METHODS.has(method)) {
    framed.ttlMs = LIST_TTL_MS;
    framed.cacheScope = cacheScope;
  }
  // A result's own _meta (forwarded response headers) is kept beside the server info.
  framed._meta = meta ? { ...meta, ...SERVER_META } : SERVER_META;
  return framed;
}
