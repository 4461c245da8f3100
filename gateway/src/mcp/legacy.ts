/**
 * MCP 2025-03-26, 2025-06-18 and 2025-11-25: `initialize` opens a session whose id every later
 * request carries (`Mcp-Session-Id`). Sessions are signed tokens (see sessions.ts), so any
 * replica of the gateway group serves them.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { CompiledExposition } from "@atrium/contract";
import { serializedOnce } from "../registry.ts";
import { serverCapabilities } from "./capabilities.ts";
import { type DispatchContext, dispatchShared, listedTools } from "./dispatch.ts";
import { isLogLevel, LOG_LEVELS, type SessionLogLevels } from "./log-levels.ts";
import { SERVER_INFO } from "./modern.ts";
import { ERROR, type JsonRpcRequest, LATEST_LEGACY_VERSION, LEGACY_VERSIONS, McpError } from "./protocol.ts";
import type { Session, SessionSigner } from "./sessions.ts";
import type { Subscriptions } from "./subscriptions.ts";

export interface LegacyOutcome {
  result: unknown;
  /** Set on the answer to `initialize`. */
  sessionId?: string;
}

/** The session a non-initialize request belongs to; 400 without one, 404 when unknown or ended. */
export function sessionOf(headers: IncomingHttpHeaders, signer: SessionSigner, expositionId: string): Session {
  const id = headers["mcp-session-id"];
  if (typeof id !== "string" || id === "") {
    throw new McpError(ERROR.badRequest, "Bad Request: Mcp-Session-Id header is required (send initialize first)", 400);
  }
  const session = signer.verify(id);
  if (!session || session.expositionId !== expositionId)
    throw new McpError(ERROR.sessionNotFound, "Session not found", 404);
  const version = headers["mcp-protocol-version"];
  if (typeof version === "string" && !(LEGACY_VERSIONS as readonly string[]).includes(version.trim())) {
    throw new McpError(ERROR.badRequest, `Bad Request: unsupported MCP-Protocol-Version ${version}`, 400);
  }
  return session;
}

export function initialize(
  request: JsonRpcRequest,
  signer: SessionSigner,
  exposition: CompiledExposition,
  /** The token's user on OAuth-protected endpoints: the session is theirs alone. */
  user?: string,
): LegacyOutcome {
  const requested = request.params?.protocolVersion;
  const protocolVersion = (LEGACY_VERSIONS as readonly string[]).includes(String(requested))
    ? String(requested)
    : LATEST_LEGACY_VERSION;
  const capabilities = (request.params?.capabilities ?? {}) as Record<string, unknown>;
  const sessionId = signer.issue({
    expositionId: exposition.id,
    protocolVersion,
    elicitation: capabilities.elicitation !== undefined,
    ...(user ? { user } : {}),
  });
  return {
    sessionId,
    result: {
      protocolVersion,
      capabilities: serverCapabilities(exposition),
      serverInfo: SERVER_INFO,
    },
  };
}

/** What the shared methods need, and where `logging/setLevel` keeps each session's level. */
export type LegacyContext = Omit<DispatchContext, "era" | "protocolVersion"> & {
  logLevels?: SessionLogLevels;
  /** Where `resources/subscribe` keeps each session's URIs. */
  subscriptions?: Subscriptions;
};

export async function handleLegacy(
  request: JsonRpcRequest,
  session: Session,
  context: LegacyContext,
): Promise<unknown> {
  if (request.method === "ping") return {};
  if (request.method === "logging/setLevel") {
    const level = request.params?.level;
    if (!isLogLevel(level))
      throw new McpError(ERROR.invalidParams, `Invalid params: level must be one of ${LOG_LEVELS.join(", ")}`);
    context.logLevels?.set(String(context.clientHeaders["mcp-session-id"]), level);
    return {};
  }
  const { subscriptions } = context;
  if (subscriptions && (request.method === "resources/subscribe" || request.method === "resources/unsubscribe")) {
    const sessionId = String(context.clientHeaders["mcp-session-id"]);
    if (request.method === "resources/subscribe")
      subscriptions.subscribe(context.served, sessionId, request.params?.uri);
    else subscriptions.unsubscribe(sessionId, request.params?.uri);
    return {};
  }
  if (request.method === "tools/list" && request.params?.cursor === undefined) {
    const listed = listedTools(context);
    return serializedOnce(context.served, `legacy tools/list${listed.key}`, () => ({ tools: listed.tools }));
  }
  const result = await dispatchShared(request.method, request.params ?? {}, {
    ...context,
    era: "legacy",
    protocolVersion: session.protocolVersion,
  });
  if (result === undefined) throw new McpError(ERROR.methodNotFound, `Method not found: ${request.method}`);
  return result;
}
