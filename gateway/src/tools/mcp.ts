/**
 * The MCP wire shapes this folder produces: a Tool for `tools/list` and a CallToolResult for
 * `tools/call` (MCP schema 2025-06-18 … 2026-07-28). Types only; the fields are those every
 * supported protocol version accepts, so one value serves both eras.
 */

import type { JsonSchema } from "@atrium/contract/tool-schema";

export type { JsonSchema };

/** Hints for clients, not guarantees (MCP defaults: readOnly false, destructive true, idempotent false, openWorld true). */
export type ToolAnnotations = {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};

export type McpTool = {
  /** 1-128 of `[A-Za-z0-9_.-]`, unique within the Exposition's tools. */
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema & { type: "object" };
  /** Root is always an object: the 2025 SDK clients refuse any other root. */
  outputSchema?: JsonSchema & { type: "object" };
  annotations?: ToolAnnotations;
};

/** Fields every content block may carry; the gateway passes them on from declared content only (content.ts). */
type BlockExtras = { annotations?: Record<string, unknown>; _meta?: Record<string, unknown> };
export type TextContent = { type: "text"; text: string } & BlockExtras;
export type ImageContent = { type: "image"; data: string; mimeType: string } & BlockExtras;
export type AudioContent = { type: "audio"; data: string; mimeType: string } & BlockExtras;
/** A document in the result: its URI, type, and text or base64 `blob`. */
export type ResourceContents = { uri: string; mimeType?: string; _meta?: Record<string, unknown> } & (
  | { text: string }
  | { blob: string }
);
export type EmbeddedResource = { type: "resource"; resource: ResourceContents } & BlockExtras;
export type ResourceLink = {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
} & BlockExtras;
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

export type CallToolResult = {
  content: ContentBlock[];
  /** Always an object (2025 clients accept nothing else); see result.ts for how other JSON is wrapped. */
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};
