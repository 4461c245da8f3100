/**
 * A CustomTools entry (an HTTP request template over the backend) into a tool, compiled once.
 *
 * `{{argument}}` placeholders are replaced by the call's arguments:
 * - in the path, URL-encoded within their segment (arrays as `a,b`), under the same rules as
 *   operation paths (path.ts: never outside the base path);
 * - in query values, URL-encoded; a query parameter or header whose placeholders all name absent
 *   arguments is left out;
 * - in headers, as text (characters a header cannot carry are percent-encoded);
 * - in the body, JSON-encoded (`{"id": {{id}}}` → `{"id": 42}`, an absent argument is `null`);
 *   inside a JSON string literal the value is inserted as string content instead
 *   (`"{{name}}"` → `"Rex"`, `"Hi {{name}}"` → `"Hi Rex"`), so both ways of writing work.
 * The body is sent as `application/json` unless the template's headers set `Content-Type` (taken
 * as written). Headers that frame the message (`Host`, `Content-Length`, …) are left out.
 * The literal text of a path template is taken as written (percent-encoded where a path cannot
 * hold it: a `?` in it is `%3F`; query parameters belong in `request.query`).
 *
 * An entry carrying its own GraphQL document instead is a GraphQL tool (custom-graphql-tool.ts).
 */
import { customToolInputSchema, isFramingHeader } from "@atrium/contract/tool-schema";
import { methodAnnotations, overrideAnnotations } from "./annotations.ts";
import { compileCustomGraphqlTool } from "./custom-graphql-tool.ts";
import { type CatalogEntry, searchText } from "./discovery.ts";
import type { McpTool } from "./mcp.ts";
import { compilePath, customToolPlaceholder } from "./path.ts";
import type { BackendRequest } from "./request.ts";
import { toolResult } from "./result.ts";
import type { ToolRuntime } from "./runtime.ts";
import { encodeComponent, pathSerializer, safeHeaderValue, valueText } from "./serialize.ts";
import type { CustomTool } from "./source.ts";
import type { ValidatorCompiler } from "./validator.ts";

type Placeholder = { property: string; inString: boolean };
type Piece = string | Placeholder;

export function compileCustomTool(custom: CustomTool, name: string, validators: ValidatorCompiler): CatalogEntry {
  if (custom.graphql) return compileCustomGraphqlTool(custom, custom.graphql, name, validators);
  const { request } = custom;
  if (!request) throw new Error("neither a request template nor a GraphQL document"); // the schema requires one
  // Its own inputSchema, a declared 2020-12 dialect published as written (@atrium/contract/tool-schema).
  const { inputSchema, paramHeaders } = customToolInputSchema(custom, (problem) =>
    validators.warnings.push(`custom tool ${name}: ${problem}`),
  );
  const tool: McpTool = {
    name,
    ...(custom.title ? { title: custom.title } : {}),
    description: custom.description,
    inputSchema,
  };
  const annotations = overrideAnnotations(methodAnnotations(request.method), custom.annotations);
  if (custom.title && annotations.title === undefined) annotations.title = custom.title;
  tool.annotations = annotations;

  const validateArguments = validators.compile(inputSchema, `custom tool ${name}`);
  const { build, checkPath } = compileTemplateRequest(request);
  const runtime: ToolRuntime = {
    tool,
    validate(args) {
      const value = args ?? {};
      const violations = validateArguments(value);
      return violations.length > 0 ? violations : checkPath(value as Record<string, unknown>);
    },
    buildRequest: build,
    route: { template: request.path },
    toResult: toolResult,
    ...(paramHeaders.length > 0 ? { paramHeaders } : {}),
  };
  return {
    runtime,
    searchText: searchText([name, custom.title, custom.description, request.method, request.path]),
  };
}

/** Splits a template into literal text and placeholders; `inString` tracks JSON string literals (for bodies). */
function parseTemplate(template: string): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  let inString = false;
  const advance = (literal: string): void => {
    for (let i = 0; i < literal.length; i++) {
      if (literal[i] === "\\" && inString) i++;
      else if (literal[i] === '"') inString = !inString;
    }
  };
  for (const match of template.matchAll(customToolPlaceholder)) {
    const literal = template.slice(last, match.index);
    advance(literal);
    if (literal) pieces.push(literal);
    pieces.push({ property: match[1] ?? "", inString });
    last = match.index + match[0].length;
  }
  if (last < template.length) pieces.push(template.slice(last));
  return pieces;
}

/** Renders a query value or header; undefined when it has placeholders and none has a value. */
function pieceRenderer(
  pieces: Piece[],
  literal: (text: string) => string,
  value: (value: unknown) => string,
): (args: Record<string, unknown>) => string | undefined {
  const compiled = pieces.map((piece) => (typeof piece === "string" ? literal(piece) : piece));
  const hasPlaceholders = compiled.some((piece) => typeof piece !== "string");
  return (args) => {
    let text = "";
    let present = !hasPlaceholders;
    for (const piece of compiled) {
      if (typeof piece === "string") text += piece;
      else {
        const argument = args[piece.property];
        if (argument !== undefined) present = true;
        text += value(argument);
      }
    }
    return present ? text : undefined;
  };
}

function compileTemplateRequest(request: NonNullable<CustomTool["request"]>): {
  build: (args: Record<string, unknown>) => BackendRequest;
  checkPath: (args: Record<string, unknown>) => string[];
} {
  const path = compilePath(request.path, customToolPlaceholder, (property) => ({
    property,
    encode: pathSerializer({ name: property }),
  }));
  const encodedText = (value: unknown): string => encodeComponent(valueText(value));
  const query = Object.entries(request.query ?? {}).map(([key, template]) => ({
    key: encodeComponent(key),
    render: pieceRenderer(parseTemplate(template), encodeComponent, encodedText),
  }));
  let contentType: string | undefined;
  const headers: { name: string; render: (args: Record<string, unknown>) => string | undefined }[] = [];
  for (const [key, template] of Object.entries(request.headers ?? {})) {
    if (key.toLowerCase() === "content-type") contentType = template;
    else if (!isFramingHeader(key))
      headers.push({ name: key.toLowerCase(), render: pieceRenderer(parseTemplate(template), (t) => t, valueText) });
  }
  const body = request.body === undefined ? undefined : parseTemplate(request.body);
  const { method } = request;

  const build = (args: Record<string, unknown>): BackendRequest => {
    let target = path.render(args);
    const pairs: string[] = [];
    for (const { key, render } of query) {
      const value = render(args);
      if (value !== undefined) pairs.push(`${key}=${value}`);
    }
    if (pairs.length > 0) target += `?${pairs.join("&")}`;
    const requestHeaders: Record<string, string> = {};
    for (const { name, render } of headers) {
      const value = render(args);
      if (value !== undefined) requestHeaders[name] = safeHeaderValue(value);
    }
    const built: BackendRequest = { method, path: target, headers: requestHeaders };
    if (body) {
      let text = "";
      for (const piece of body) {
        if (typeof piece === "string") text += piece;
        else if (piece.inString) text += JSON.stringify(valueText(args[piece.property])).slice(1, -1);
        else text += JSON.stringify(args[piece.property] ?? null);
      }
      built.body = text;
      built.contentType = contentType ?? "application/json";
    }
    return built;
  };
  return { build, checkPath: path.check };
}
