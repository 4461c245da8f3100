/**
 * MCP content blocks a backend writes itself: an operation marked `x-mcp-content: true` answers a
 * JSON array of them, passed on as the result's `content`. Each item is checked against the MCP
 * ContentBlock shapes (2025-06-18 … 2026-07-28): text, image, audio, an embedded resource (text or
 * base64 blob) and a resource link. Known fields are kept and others dropped, so what a client
 * receives is what was checked; a bad item makes the whole answer a tool error that names it.
 */
import { z } from "zod";
import type { ContentBlock } from "./mcp.ts";

/** Most content blocks in one result, whether a backend declared them or a multipart answer made them. */
export const MAX_CONTENT_BLOCKS = 100;

/** Canonical base64 (standard alphabet, padded): what decoding and re-encoding gives back unchanged. */
const base64 = z
  .string()
  .min(1)
  .refine((value) => Buffer.from(value, "base64").toString("base64") === value, "must be base64 (padded)");
const absoluteUri = z.string().regex(/^[A-Za-z][A-Za-z0-9+.-]*:/, "must be an absolute URI (scheme:…)");
const mimeType = z.string().regex(/^[\w.+-]+\/[\w.+-]+/, "must be a MIME type such as text/plain");
const annotations = z
  .object({
    audience: z.array(z.enum(["user", "assistant"])).optional(),
    priority: z.number().min(0).max(1).optional(),
    lastModified: z.iso.datetime({ offset: true }).optional(),
  })
  .optional();
const meta = z.record(z.string(), z.unknown()).optional();
const common = { annotations, _meta: meta };

const resourceContents = z.union([
  z.object({ uri: absoluteUri, mimeType: mimeType.optional(), text: z.string(), _meta: meta }),
  z.object({ uri: absoluteUri, mimeType: mimeType.optional(), blob: base64, _meta: meta }),
]);

const contentBlock = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string(), ...common }),
  z.object({ type: z.literal("image"), data: base64, mimeType, ...common }),
  z.object({ type: z.literal("audio"), data: base64, mimeType, ...common }),
  z.object({ type: z.literal("resource"), resource: resourceContents, ...common }),
  z.object({
    type: z.literal("resource_link"),
    uri: absoluteUri,
    name: z.string().min(1),
    title: z.string().optional(),
    description: z.string().optional(),
    mimeType: mimeType.optional(),
    size: z.number().int().nonnegative().optional(),
    ...common,
  }),
]);

/** The blocks of a declared content array, or why it is not one (in words, naming the item). */
export function contentArrayOf(value: unknown): { content: ContentBlock[] } | { problem: string } {
  if (!Array.isArray(value)) return { problem: "the answer is not a JSON array of content blocks" };
  if (value.length === 0) return { problem: "the array holds no content block" };
  if (value.length > MAX_CONTENT_BLOCKS) {
    return { problem: `the array holds ${value.length} content blocks, more than ${MAX_CONTENT_BLOCKS}` };
  }
  const content: ContentBlock[] = [];
  for (const [index, item] of value.entries()) {
    const parsed = contentBlock.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` (${issue.path.join(".")})` : "";
      return { problem: `item ${index + 1} is not a valid MCP content block${where}: ${issue?.message ?? "invalid"}` };
    }
    content.push(parsed.data as ContentBlock);
  }
  return { content };
}
