/**
 * `Mcp-Param-{Name}` headers (SEP-2243, MCP 2026-07-28): which arguments a tool's inputSchema
 * marks for mirroring is decided where the schema is built (@atrium/contract/tool-schema); what a
 * call's header must say for an argument's value is here.
 */
export type { ParamHeader } from "@atrium/contract/tool-schema";

/** The header value a client sends for an argument's value (before any Base64 encoding). */
export function headerText(value: unknown): string {
  return typeof value === "boolean" ? (value ? "true" : "false") : String(value);
}
