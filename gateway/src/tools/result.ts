/**
 * Backend responses into MCP CallToolResults, and the results the gateway makes itself.
 *
 * By the response's media type:
 * - JSON: one text block with the body as received; `structuredContent` is the parsed value when
 *   it is an object, else `{ "result": <value> }` (2025 clients accept only an object there);
 * - `image/*` (not SVG, which is text) and `audio/*`: an image / audio block, base64;
 * - text (`text/*`, XML, YAML, JavaScript, form data, or unlabelled bytes that are valid UTF-8): text;
 * - other bytes: a text block saying `N bytes of <type>`; the bytes are not sent, as a model
 *   cannot read them and clients render few embedded types.
 * A body over `maxBytes` is cut at a character boundary and ends with
 * `…[truncated: <size> bytes, showing the first <shown>]`; a cut JSON body is text only, never
 * `structuredContent`. An image or audio body over the limit is replaced by a text notice.
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
import { isJsonMediaType, mediaTypeOf } from "./body.ts";
import type { CallToolResult, ContentBlock } from "./mcp.ts";
import { isPlainObject } from "./schema.ts";

export type BackendResponse = {
  status: number;
  /** Lower-case names, as undici gives them. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The reader stopped early: `body` holds only the first bytes of a longer body. */
  truncated?: boolean;
};

export type ResultOptions = {
  /** Largest body passed on in full. */
  maxBytes: number;
  /** Response headers copied into `_meta` (case-insensitive). */
  forwardHeaders?: string[];
};

/** A backend answer as the mapping reads it: `cut` when the body holds only its first bytes. */
type Answer = { status: number; body: Buffer; cut: boolean; contentType: string; mediaType: string };

export const FORWARDED_HEADERS_META_KEY = "dev.atrium/headers";
export const BACKEND_STATUS_META_KEY = "dev.atrium/backendStatus";

/** Deepest nesting of a backend's JSON answer passed on; deeper values would overflow the stack of what walks them. */
export const MAX_ANSWER_DEPTH = 128;

const textMediaType = /^(?:text\/|application\/(?:[\w.+-]*\+)?(?:xml|yaml|x-yaml|javascript|ecmascript|graphql|sql)$)/;
const textMediaTypes = new Set(["application/x-www-form-urlencoded", "image/svg+xml", "application/x-ndjson"]);

export function statusLine(status: number): string {
  const reason = STATUS_CODES[status];
  return reason ? `HTTP ${status} ${reason}` : `HTTP ${status}`;
}

export function toolResult(response: BackendResponse, options: ResultOptions): CallToolResult {
  const { status, body } = response;
  const contentType = firstValue(response.headers["content-type"]) ?? "";
  const answer = { status, body, cut: response.truncated === true, contentType, mediaType: mediaTypeOf(contentType) };
  const result = status < 200 || status >= 300 ? mapFailure(answer, options) : mapSuccess(answer, options);
  const forwarded = forwardedHeaders(response.headers, options.forwardHeaders);
  // One small object per call, whichever keys it holds.
  result._meta = forwarded
    ? { [BACKEND_STATUS_META_KEY]: status, [FORWARDED_HEADERS_META_KEY]: forwarded }
    : { [BACKEND_STATUS_META_KEY]: status };
  return result;
}

function mapSuccess(answer: Answer, options: ResultOptions): CallToolResult {
  const { status, body, cut, contentType, mediaType } = answer;
  if (body.length === 0) return { content: [{ type: "text", text: statusLine(status) }] };
  if (isJsonMediaType(mediaType) && !cut && body.length <= options.maxBytes) {
    const text = decodeText(body, contentType);
    // Deeper values would overflow the stack of the validators and serializers that walk them.
    if (nestsDeeperThan(text, MAX_ANSWER_DEPTH)) return tooDeepResult(status);
    const value = parseJson(text);
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
  const block = bodyBlock(answer, options.maxBytes);
  const content: ContentBlock[] =
    block.type === "text" ? [{ type: "text", text: `${head}\n${block.text}` }] : [{ type: "text", text: head }, block];
  return { content, isError: true };
}

/** The body as one content block, cut to `maxBytes`; `cut`: the body already is a prefix of a longer one. */
function bodyBlock({ body, cut, contentType, mediaType }: Answer, maxBytes: number): ContentBlock {
  const kind =
    mediaType.startsWith("image/") && mediaType !== "image/svg+xml"
      ? "image"
      : mediaType.startsWith("audio/")
        ? "audio"
        : undefined;
  if (kind) {
    if (cut || body.length > maxBytes) {
      const size = cut ? `More than ${body.length}` : `${body.length}`;
      return { type: "text", text: `${size} bytes of ${mediaType}, over the size limit: not included` };
    }
    return { type: kind, data: body.toString("base64"), mimeType: mediaType };
  }
  const shown = cut || body.length > maxBytes ? utf8Prefix(body, maxBytes) : body;
  const isText =
    isJsonMediaType(mediaType) || textMediaType.test(mediaType) || textMediaTypes.has(mediaType) || isUtf8(shown);
  const size = cut ? `more than ${body.length}` : `${body.length}`;
  if (!isText) return { type: "text", text: `${size} bytes of ${mediaType || "application/octet-stream"}` };
  const text = decodeText(shown, contentType);
  return {
    type: "text",
    text: shown === body && !cut ? text : `${text}\n…[truncated: ${size} bytes, showing the first ${shown.length}]`,
  };
}

/** The first `max` bytes at most, ending before a UTF-8 sequence that they would cut in two. */
function utf8Prefix(body: Buffer, max: number): Buffer {
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function forwardedHeaders(
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
