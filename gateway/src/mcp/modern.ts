/**
 * MCP 2026-07-28: stateless. Every request carries its protocol version, capabilities and
 * client info in `params._meta`, and the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`
 * headers must agree with the body. Checks run in the order the conformance suite expects.
 */
import type { IncomingHttpHeaders } from "node:http";
import { serializedOnce } from "../registry.ts";
import { headerText, type ParamHeader } from "../tools/param-headers.ts";
import { serverCapabilities } from "./capabilities.ts";
import { type DispatchContext, dispatchShared, listedTools } from "./dispatch.ts";
import { isLogLevel, LOG_LEVELS } from "./log-levels.ts";
import { ERROR, type JsonRpcRequest, McpError, META, MODERN_VERSION, SUPPORTED_VERSIONS } from "./protocol.ts";
import { listenRequest } from "./subscriptions.ts";

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

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * A header's value, trimmed; `=?base64?…?=` values (text a header cannot carry as is) decoded.
 * Anything else — `=?base64?` without its `?=`, Base64 with bad padding or characters — is taken
 * literally, so it matches no body value it was not sent as (SEP-2243's test table).
 */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value?.startsWith("=?base64?") || !value.endsWith("?=") || value.length < 11) return value;
  const encoded = value.slice(9, -2);
  return STRICT_BASE64.test(encoded) ? Buffer.from(encoded, "base64").toString("utf8") : value;
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
  const logLevel = meta?.[META.logLevel];
  if (logLevel !== undefined && !isLogLevel(logLevel)) {
    throw new McpError(
      ERROR.invalidParams,
      `params._meta "${META.logLevel}" must be one of ${LOG_LEVELS.join(", ")}`,
      400,
    );
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
  if (request.method === "tools/call" && typeof named === "string") {
    checkParamHeaders(context.served.toolset.get(named)?.paramHeaders, request.params?.arguments, headers);
  }

  const params = request.params ?? {};
  if (request.method === "server/discover") {
    return {
      resultType: "complete",
      supportedVersions: SUPPORTED_VERSIONS,
      capabilities: serverCapabilities(context.served.exposition),
      _meta: SERVER_META,
      ttlMs: LIST_TTL_MS,
      cacheScope,
    };
  }
  if (REMOVED.has(request.method)) {
    throw new McpError(ERROR.methodNotFound, `${request.method} does not exist in protocol ${MODERN_VERSION}`, 404);
  }
  // Answered by the endpoint with a stream that stays open (subscriptions.ts).
  if (request.method === "subscriptions/listen") return listenRequest(params);
  if (request.method === "tools/list" && params.cursor === undefined) {
    const listed = listedTools(context);
    return serializedOnce(context.served, `modern tools/list${listed.key}`, () =>
      frame(request.method, { tools: listed.tools }, cacheScope),
    );
  }
  const result = await dispatchShared(request.method, params, {
    ...context,
    era: "modern",
    protocolVersion: MODERN_VERSION,
    // Asking for a credential depends on what this request's client declared.
    elicitation: context.elicitation && { ...context.elicitation, capabilities },
    askArguments: context.askArguments && { ...context.askArguments, clientCapabilities: capabilities },
  });
  if (result === undefined) throw new McpError(ERROR.methodNotFound, `Method not found: ${request.method}`, 404);
  return frame(request.method, result as Record<string, unknown>, cacheScope);
}

/** Each `Mcp-Param-*` header of the tool must agree with its argument: present exactly when the argument is. */
function checkParamHeaders(paramHeaders: ParamHeader[] | undefined, args: unknown, headers: IncomingHttpHeaders) {
  if (!paramHeaders) return;
  const values = typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {};
  for (const { property, header } of paramHeaders) {
    const value = values[property];
    const expected = value === undefined || value === null ? undefined : headerText(value);
    const sent = headerValue(headers, header);
    if (sent !== expected) {
      throw new McpError(
        ERROR.headerMismatch,
        expected === undefined
          ? `Header ${header} is set but argument ${property} is not`
          : `Header ${header} (${sent ?? "missing"}) must equal argument ${property} (${expected})`,
        400,
      );
    }
  }
}

/** A shared method's result in the modern era's frame: `resultType`, caching hints for lists, server info in `_meta`. */
function frame(method: string, result: Record<string, unknown>, cacheScope: "public" | "private") {
  const meta = result._meta as Record<string, unknown> | undefined;
  // A tool call asking for the user's credential (elicitation/flow.ts) keeps its input_required.
  const resultType = result.resultType === "input_required" ? "input_required" : "complete";
  const framed: Record<string, unknown> = { ...result, resultType };
  if (LIST_METHODS.has(method)) {
    framed.ttlMs = LIST_TTL_MS;
    framed.cacheScope = cacheScope;
  }
  // A result's own _meta (forwarded response headers) is kept beside the server info.
  framed._meta = meta ? { ...meta, ...SERVER_META } : SERVER_META;
  return framed;
}
