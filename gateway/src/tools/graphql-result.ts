/**
 * A GraphQL endpoint's answer (GraphQL over HTTP: a JSON object with `data` and/or `errors`)
 * into a CallToolResult:
 * - `data` without `errors`: `structuredContent` is `data` itself (`{<field>: <value>}`, what the
 *   tool's outputSchema describes) and the text is its JSON; data that does not match the
 *   outputSchema is an error that says why (conformingResult, as for any tool);
 * - `errors`: `isError`, the text lists each message with its path (`products[0].name`) and its
 *   `extensions.code` when it is a string; partial `data` beside them stays, as text, and as
 *   `structuredContent` only when it matches the outputSchema (never a result that breaks what
 *   tools/list advertises);
 * - an answer outside 2xx is an error whose text starts with `HTTP <status> <reason>`, with the
 *   errors read as above when the body is a GraphQL response, else shown as any tool shows it;
 * - a 2xx answer that is not a GraphQL response (not JSON, cut at the size limit, nested too
 *   deep, or JSON of another shape) is an error that says so and shows the body.
 * Every result carries `_meta` as REST tools' do (the backend's status, forwarded headers).
 */
import { nestsDeeperThan } from "@atrium/contract/json-depth";
import { isJsonMediaType, mediaTypeOf } from "@atrium/contract/tool-schema";
import type { CallToolResult } from "./mcp.ts";
import {
  type BackendResponse,
  backendMeta,
  conformingResult,
  MAX_ANSWER_DEPTH,
  parseJson,
  type ResultOptions,
  statusLine,
  toolResult,
} from "./result.ts";
import { isPlainObject } from "./schema.ts";
import type { Validator } from "./validator.ts";

/** At most this many errors are listed; the rest are counted. */
export const MAX_LISTED_ERRORS = 20;

type GraphqlAnswer = { data: Record<string, unknown> | undefined; errors: unknown[] };

export function graphqlResult(
  response: BackendResponse,
  options: ResultOptions,
  validate: Validator | undefined,
): CallToolResult {
  const answer = readAnswer(response, options.maxBytes);
  if (!answer) return notGraphql(response, options);
  const ok = response.status >= 200 && response.status < 300;
  const { data, errors } = answer;
  const dataText = data === undefined ? undefined : JSON.stringify(data);
  if (ok && errors.length === 0 && data && dataText !== undefined) {
    const plain: CallToolResult = { content: [{ type: "text", text: dataText }], structuredContent: data };
    const result = validate ? conformingResult(plain, validate) : plain;
    result._meta = backendMeta(response, options);
    return result;
  }
  const lines = ok ? [] : [statusLine(response.status)];
  if (errors.length > 0) lines.push("GraphQL errors:");
  else if (dataText === undefined) lines.push("The GraphQL endpoint answered no data and no errors.");
  for (const error of errors.slice(0, MAX_LISTED_ERRORS)) lines.push(`- ${describeError(error)}`);
  if (errors.length > MAX_LISTED_ERRORS) lines.push(`… and ${errors.length - MAX_LISTED_ERRORS} more`);
  if (dataText !== undefined) lines.push(`${errors.length > 0 ? "Partial data" : "Data"}:\n${dataText}`);
  const result: CallToolResult = { content: [{ type: "text", text: lines.join("\n") }], isError: true };
  if (data && (!validate || validate(data).length === 0)) result.structuredContent = data;
  result._meta = backendMeta(response, options);
  return result;
}

/** The answer as a GraphQL response, or undefined when it is none (or cannot be read whole). */
function readAnswer(response: BackendResponse, maxBytes: number): GraphqlAnswer | undefined {
  const contentType = response.headers["content-type"];
  const mediaType = mediaTypeOf((Array.isArray(contentType) ? contentType[0] : contentType) ?? "");
  if (response.truncated || response.body.length > maxBytes || !isJsonMediaType(mediaType)) return undefined;
  // GraphQL over HTTP is UTF-8.
  const text = response.body.toString("utf8");
  if (nestsDeeperThan(text, MAX_ANSWER_DEPTH)) return undefined;
  const value = parseJson(text);
  if (!isPlainObject(value)) return undefined;
  const { data, errors } = value;
  const hasData = isPlainObject(data) || data === null;
  if (!hasData && !Array.isArray(errors)) return undefined;
  return { data: isPlainObject(data) ? data : undefined, errors: Array.isArray(errors) ? errors : [] };
}

/** Not a GraphQL response: as any tool shows the answer, and an error even when it is a 2xx. */
function notGraphql(response: BackendResponse, options: ResultOptions): CallToolResult {
  const plain = toolResult(response, options);
  if (plain.isError) return plain;
  const notice = `${statusLine(response.status)}\nThe GraphQL endpoint's answer is not a GraphQL response (a JSON object with data or errors within the size limit):`;
  const { structuredContent: _dropped, ...rest } = plain;
  return { ...rest, content: [{ type: "text", text: notice }, ...plain.content], isError: true };
}

/** `message (at products[0].name) [CODE]`; what is not a string is shown as JSON. */
function describeError(error: unknown): string {
  if (!isPlainObject(error)) return JSON.stringify(error) ?? String(error);
  const message = typeof error.message === "string" ? error.message : JSON.stringify(error.message ?? "(no message)");
  const path = Array.isArray(error.path) ? pathText(error.path) : "";
  const code = isPlainObject(error.extensions) ? error.extensions.code : undefined;
  return `${message}${path ? ` (at ${path})` : ""}${typeof code === "string" ? ` [${code}]` : ""}`;
}

function pathText(path: unknown[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += text === "" ? String(segment) : `.${String(segment)}`;
  }
  return text;
}
