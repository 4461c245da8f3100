/**
 * Backend responses into MCP CallToolResults, and the results the gateway makes itself.
 *
 * By the response's media type:
 * - JSON: one text block with the body as received; `structuredContent` is the parsed value when
 *   it is an object, else `{ "result": <value> }` (2025 clients accept only an object there);
 * - `image/*` (not SVG, which is text) and `audio/*`: an image / audio block, base64;
 * - text (`text/*`, XML, YAML, JavaScript, form data, or unlabelled bytes that are valid UTF-8): text;
 * - other bytes: a text block saying `N bytes of <type>`; the bytes are not sent, as a model
 *   cannot read them and clients render few embedded types;
 * - `multipart/mixed`: one block per part (multipart.ts), at most MAX_CONTENT_BLOCKS (a text
 *   block after them says how many were left out). A part with an absolute `Content-Location` is
 *   an embedded resource at that URI; otherwise images and audio are image / audio blocks, text
 *   types (JSON included) are text, and other types are embedded resources (base64 `blob`, URI
 *   `cid:<Content-ID>`, or `cid:part-<n>` when the part has none). The first JSON part gives
 *   `structuredContent` by the rules of a JSON answer. A malformed body is a tool error;
 * - JSON of an operation marked `x-mcp-content: true` (ResultOptions.declaredContent): the array
 *   of MCP content blocks it holds, checked by content.ts, with no `structuredContent`; an
 *   answer that is not such an array is a tool error that says why.
 * A body over `maxBytes` is cut at a character boundary and ends with
 * `…[truncated: <size> bytes, showing the first <shown>]`; a cut JSON body is text only, never
 * `structuredContent`. An image, audio or multipart body over the limit is replaced by a text notice.
 *
 * A JSON body nested deeper than MAX_ANSWER_DEPTH is not passed on: an error result
 * says so.
 *
 * A status outside 2xx sets `isError` (3xx too: the gateway does not follow redirects, so the
 * operation's result was not obtained) and the text starts with `HTTP <status> <reason>`; error
 * results carry no `structuredContent`.
 *
 * Every result of a backend answer, success or failure, carries the answer's HTTP status in
 * `_meta["dev.atrium/backendStatus"]` (a number), so a client need not read it out of the text.
 * Response headers named in `forwardHeaders` (headerPolicy.forwardResponseHeaders) go into
 * `_meta["dev.atrium/headers"]` as `{ lower-case name: value }`, several values joined by `, `.
 * The keys use the reverse-DNS prefix of the product's domain (`atrium.dev`), as MCP asks of
 * `_meta` keys.
 */
import { isUtf8 } from "node:buffer";
import { STATUS_CODES } from "node:http";
import { nestsDeeperThan } from "@atrium/contract/json-depth";
import { isJsonMediaType, mediaTypeOf } from "@atrium/contract/tool-schema";
import type { GrpcAnswer } from "../grpc/answer.ts";
import { contentArrayOf, MAX_CONTENT_BLOCKS } from "./content.ts";
import type { CallToolResult, ContentBlock } from "./mcp.ts";
import { boundaryOf, type MimePart, splitMultipart } from "./multipart.ts";
import { isPlainObject } from "./schema.ts";

export type BackendResponse = {
  status: number;
  /** Lower-case names, as undici gives them. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The reader stopped early: `body` holds only the first bytes of a longer body. */
  truncated?: boolean;
  /** Set on the answer of a gRPC backend (its body is empty): the status and messages (grpc/result.ts). */
  grpc?: GrpcAnswer;
};

export type ResultOptions = {
  /** Largest body passed on in full. */
  maxBytes: number;
  /** Response headers copied into `_meta` (case-insensitive). */
  forwardHeaders?: string[];
  /** The operation declares its JSON answer an array of MCP content blocks (`x-mcp-content: true`). */
  declaredContent?: boolean;
};

/** A backend answer as the mapping reads it: `cut` when the body holds only its first bytes. */
type Answer = { status: number; body: Buffer; cut: boolean; contentType: string; mediaType: string };

export const FORWARDED_HEADERS_META_KEY = "dev.atrium/headers";
export const BACKEND_STATUS_META_KEY = "dev.atrium/backendStatus";

/** Deepest nesting of a backend's JSON answer passed on; deeper values would overflow the stack of what walks them. */
export const MAX_ANSWER_DEPTH = 128;

const textMediaType = /^(?:text\/|application\/(?:[\w.+-]*\+)?(?:xml|yaml|x-yaml|javascript|ecmascript|graphql|sql)$)/;
const textMediaTypes = new Set(["application/x-www-form-urlencoded", "image/svg+xml", "application/x-ndjson"]);
const MULTIPART_MIXED = "multipart/mixed";
const absoluteUri = /^[A-Za-z][A-Za-z0-9+.-]*:/;

function isTextMediaType(mediaType: string): boolean {
  return isJsonMediaType(mediaType) || textMediaType.test(mediaType) || textMediaTypes.has(mediaType);
}

/** The MCP block kind of a media type sent as base64 data (SVG is text). */
function mediaKind(mediaType: string): "image" | "audio" | undefined {
  if (mediaType.startsWith("image/") && mediaType !== "image/svg+xml") return "image";
  return mediaType.startsWith("audio/") ? "audio" : undefined;
}

export function statusLine(status: number): string {
  const reason = STATUS_CODES[status];
  return reason ? `HTTP ${status} ${reason}` : `HTTP ${status}`;
}

export function toolResult(response: BackendResponse, options: ResultOptions): CallToolResult {
  const { status, body } = response;
  const contentType = firstValue(response.headers["content-type"]) ?? "";
  const answer = { status, body, cut: response.truncated === true, contentType, mediaType: mediaTypeOf(contentType) };
  const result = status < 200 || status >= 300 ? mapFailure(answer, options) : mapSuccess(answer, options);
  result._meta = backendMeta(response, options);
  return result;
}

/** The `_meta` of every result of a backend answer: its status, and the headers forwarded (see the module comment). */
export function backendMeta(response: BackendResponse, options: ResultOptions): Record<string, unknown> {
  const forwarded = forwardedHeaders(response.headers, options.forwardHeaders);
  // One small object per call, whichever keys it holds.
  return forwarded
    ? { [BACKEND_STATUS_META_KEY]: response.status, [FORWARDED_HEADERS_META_KEY]: forwarded }
    : { [BACKEND_STATUS_META_KEY]: response.status };
}

function mapSuccess(answer: Answer, options: ResultOptions): CallToolResult {
  const { status, body, cut, contentType, mediaType } = answer;
  if (body.length === 0) return { content: [{ type: "text", text: statusLine(status) }] };
  const whole = !cut && body.length <= options.maxBytes;
  if (whole && mediaType === MULTIPART_MIXED) {
    const mixed = mixedContent(answer);
    if ("problem" in mixed) {
      return { content: [{ type: "text", text: `${statusLine(status)}\n${mixed.problem}` }], isError: true };
    }
    // No parts: said like an empty body.
    if (mixed.content.length === 0) mixed.content.push({ type: "text", text: statusLine(status) });
    return mixed;
  }
  if (isJsonMediaType(mediaType) && whole) {
    const text = decodeText(body, contentType);
    // Deeper values would overflow the stack of the validators and serializers that walk them.
    if (nestsDeeperThan(text, MAX_ANSWER_DEPTH)) return tooDeepResult(status);
    const value = parseJson(text);
    if (options.declaredContent) return declaredContentResult(status, value);
    if (value !== undefined) {
      return {
        content: [{ type: "text", text }],
        structuredContent: isPlainObject(value) ? value : { result: value },
      };
    }
    return { content: [{ type: "text", text }] };
  }
  return { content: [bodyBlock(answer, options.maxBytes)] };
}

function mapFailure(answer: Answer, options: ResultOptions): CallToolResult {
  const head = statusLine(answer.status);
  if (answer.body.length === 0) return { content: [{ type: "text", text: head }], isError: true };
  if (answer.mediaType === MULTIPART_MIXED && !answer.cut && answer.body.length <= options.maxBytes) {
    const mixed = mixedContent(answer);
    const content: ContentBlock[] =
      "problem" in mixed
        ? [{ type: "text", text: `${head}\n${mixed.problem}` }]
        : [{ type: "text", text: head }, ...mixed.content];
    return { content, isError: true };
  }
  const block = bodyBlock(answer, options.maxBytes);
  const content: ContentBlock[] =
    block.type === "text" ? [{ type: "text", text: `${head}\n${block.text}` }] : [{ type: "text", text: head }, block];
  return { content, isError: true };
}

/** The body as one content block, cut to `maxBytes`; `cut`: the body already is a prefix of a longer one. */
function bodyBlock({ body, cut, contentType, mediaType }: Answer, maxBytes: number): ContentBlock {
  const kind = mediaKind(mediaType);
  // Base64 data and MIME framing are useless cut: past the limit, a notice replaces them.
  if ((kind || mediaType === MULTIPART_MIXED) && (cut || body.length > maxBytes)) {
    const size = cut ? `More than ${body.length}` : `${body.length}`;
    return { type: "text", text: `${size} bytes of ${mediaType}, over the size limit: not included` };
  }
  if (kind) return { type: kind, data: body.toString("base64"), mimeType: mediaType };
  const shown = cut || body.length > maxBytes ? utf8Prefix(body, maxBytes) : body;
  const isText = isTextMediaType(mediaType) || isUtf8(shown);
  const size = cut ? `more than ${body.length}` : `${body.length}`;
  if (!isText) return { type: "text", text: `${size} bytes of ${mediaType || "application/octet-stream"}` };
  const text = decodeText(shown, contentType);
  return {
    type: "text",
    text: shown === body && !cut ? text : `${text}\n…[truncated: ${size} bytes, showing the first ${shown.length}]`,
  };
}

/** A whole multipart/mixed answer as content blocks, none for no parts (see the module comment), or why it cannot be read. */
function mixedContent(answer: Answer): CallToolResult | { problem: string } {
  const boundary = boundaryOf(answer.contentType);
  const split = boundary
    ? splitMultipart(answer.body, boundary, MAX_CONTENT_BLOCKS)
    : { problem: "its Content-Type has no boundary parameter" };
  if ("problem" in split) return { problem: `The backend's multipart/mixed answer is malformed: ${split.problem}.` };
  const { parts: kept, total } = split;
  const result: CallToolResult = { content: kept.map(partBlock) };
  if (kept.length < total) {
    result.content.push({ type: "text", text: `…[${total} parts: the first ${MAX_CONTENT_BLOCKS} are shown]` });
  }
  const json = kept.find((part) => isJsonMediaType(mediaTypeOf(part.headers["content-type"] ?? "")));
  const text = json ? decodeText(json.body, json.headers["content-type"] ?? "") : undefined;
  // A value too deep for the validators stays text only.
  const value = text && !nestsDeeperThan(text, MAX_ANSWER_DEPTH) ? parseJson(text) : undefined;
  if (value !== undefined) result.structuredContent = isPlainObject(value) ? value : { result: value };
  return result;
}

function partBlock(part: MimePart, index: number): ContentBlock {
  const contentType = part.headers["content-type"] ?? "text/plain";
  const mediaType = mediaTypeOf(contentType) || "text/plain";
  const location = part.headers["content-location"];
  const kind = mediaKind(mediaType);
  const isText = !kind && isTextMediaType(mediaType);
  if (!location || !absoluteUri.test(location)) {
    if (kind) return { type: kind, data: part.body.toString("base64"), mimeType: mediaType };
    if (isText) return { type: "text", text: decodeText(part.body, contentType) };
  }
  const contentId = part.headers["content-id"]?.replace(/^<|>$/g, "");
  const uri = location && absoluteUri.test(location) ? location : `cid:${encodeURI(contentId || `part-${index + 1}`)}`;
  return {
    type: "resource",
    resource: isText
      ? { uri, mimeType: mediaType, text: decodeText(part.body, contentType) }
      : { uri, mimeType: mediaType, blob: part.body.toString("base64") },
  };
}

/** The result of a JSON answer the operation declares an array of MCP content blocks. */
function declaredContentResult(status: number, value: unknown): CallToolResult {
  const declared = contentArrayOf(value);
  if ("content" in declared) return { content: declared.content };
  const text = `${statusLine(status)}\nThe backend's answer is declared an MCP content array (x-mcp-content), but ${declared.problem}.`;
  return { content: [{ type: "text", text }], isError: true };
}

/** The first `max` bytes at most, ending before a UTF-8 sequence that they would cut in two. */
export function utf8Prefix(body: Buffer, max: number): Buffer {
  let end = Math.min(max, body.length);
  let lead = end - 1;
  // continuation bytes are 10xxxxxx: step back to the last sequence's lead byte
  while (lead > 0 && end - lead < 4 && ((body[lead] ?? 0) & 0xc0) === 0x80) lead--;
  const first = body[lead] ?? 0;
  const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  if (lead >= 0 && end - lead < length) end = lead;
  return body.subarray(0, end);
}

const charsetParameter = /;\s*charset\s*=\s*"?([^";\s]+)/i;

function decodeText(body: Buffer, contentType: string): string {
  const charset = charsetParameter.exec(contentType)?.[1]?.toLowerCase();
  if (!charset || charset === "utf-8" || charset === "utf8" || charset === "us-ascii") return body.toString("utf8");
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return body.toString("utf8"); // unknown charset: UTF-8 is the likeliest
  }
}

/** The value of JSON text; undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function forwardedHeaders(
  headers: BackendResponse["headers"],
  names: string[] | undefined,
): Record<string, string> | undefined {
  if (!names || names.length === 0) return undefined;
  let forwarded: Record<string, string> | undefined;
  for (const name of names) {
    const key = name.toLowerCase();
    const value = headers[key];
    if (value === undefined) continue;
    forwarded ??= {};
    forwarded[key] = Array.isArray(value) ? value.join(", ") : value;
  }
  return forwarded;
}

/** The result of a backend call that did not answer within `ms`: a gateway-generated 504. */
export function timeoutResult(ms: number): CallToolResult {
  return {
    content: [{ type: "text", text: `${statusLine(504)}\nThe backend did not answer within ${ms} ms.` }],
    isError: true,
  };
}

/** The result of a JSON answer nested too deeply to pass on. */
function tooDeepResult(status: number): CallToolResult {
  return {
    content: [
      {
        type: "text",
        text: `${statusLine(status)}\nThe backend's JSON answer nests objects or arrays deeper than ${MAX_ANSWER_DEPTH} levels: not passed on.`,
      },
    ],
    isError: true,
  };
}

/** The result of a call whose arguments do not match the tool's inputSchema (MCP: a tool error, not a protocol error). */
export function validationErrorResult(violations: string[]): CallToolResult {
  return {
    content: [{ type: "text", text: `Invalid arguments:\n${violations.map((v) => `- ${v}`).join("\n")}` }],
    isError: true,
  };
}

/**
 * A successful result of a tool that declares an `outputSchema` must carry conforming
 * `structuredContent` (2025 clients throw otherwise). When the backend's answer does not
 * conform, or is not JSON, or was cut, the result becomes an error that still shows the body.
 */
export function conformingResult(result: CallToolResult, validate: (value: unknown) => string[]): CallToolResult {
  if (result.isError) return result;
  const violations = result.structuredContent
    ? validate(result.structuredContent)
    : ["the response is not a JSON object within the size limit"];
  if (violations.length === 0) return result;
  const notice = `The backend's response does not match the tool's output schema:\n${violations.map((v) => `- ${v}`).join("\n")}`;
  const { structuredContent: _dropped, ...rest } = result;
  return { ...rest, content: [{ type: "text", text: notice }, ...result.content], isError: true };
}
