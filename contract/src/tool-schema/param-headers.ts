/**
 * `Mcp-Param-{Name}` headers (SEP-2243, MCP 2026-07-28). A top-level inputSchema property whose
 * schema carries `"x-mcp-header": "<Name>"` is mirrored by clients into an `Mcp-Param-<Name>`
 * header, so that proxies and load balancers can route on it without reading the body; the
 * server checks that header and body agree (400, -32020 otherwise, in modern.ts).
 *
 * The annotation is read from the property's schema as written: an OpenAPI parameter's `schema`,
 * or a CustomTools inputSchema property. It is published only where the SEP allows it — a name of
 * visible ASCII token characters (no space or colon), unique regardless of case within the tool,
 * on a `string`, `integer` or `boolean` property — and dropped with a warning otherwise, since a
 * client must refuse a tool carrying an invalid one. Gateways publish the annotations and check the
 * headers (gateway/src/tools/param-headers.ts); the control plane shows the same inputSchema.
 */
import { isPlainObject, type JsonSchema } from "./prepare.ts";

export const PARAM_HEADER_KEYWORD = "x-mcp-header";

export type ParamHeader = {
  /** The argument it mirrors. */
  property: string;
  /** The header's name in lower case, as node:http gives it: `mcp-param-region`. */
  header: string;
  type: "string" | "integer" | "boolean";
};

/** RFC 9110 token characters. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const MIRRORED_TYPES = new Set(["string", "integer", "boolean"]);

/**
 * Publishes the valid annotations of `written` (top-level property name → its schema as written)
 * on `inputSchema`'s properties, and returns the headers calls must carry.
 */
export function annotateParamHeaders(
  inputSchema: JsonSchema,
  written: Record<string, unknown>,
  warn: (message: string) => void,
): ParamHeader[] {
  const properties = isPlainObject(inputSchema.properties) ? inputSchema.properties : {};
  const headers: ParamHeader[] = [];
  for (const [property, schema] of Object.entries(written)) {
    const name = isPlainObject(schema) ? schema[PARAM_HEADER_KEYWORD] : undefined;
    const published = properties[property];
    if (name === undefined || !isPlainObject(published)) continue;
    const type = published.type;
    const problem =
      typeof name !== "string" || !TOKEN.test(name)
        ? "is not a header name (visible ASCII letters, digits and !#$%&'*+.^_`|~- only)"
        : typeof type !== "string" || !MIRRORED_TYPES.has(type)
          ? "is only allowed on string, integer and boolean properties"
          : headers.some((taken) => taken.header === `mcp-param-${name.toLowerCase()}`)
            ? "repeats another property's header name"
            : undefined;
    if (problem) {
      warn(`${PARAM_HEADER_KEYWORD} ${JSON.stringify(name)} of property ${property} ${problem}: left out`);
      continue;
    }
    published[PARAM_HEADER_KEYWORD] = name;
    headers.push({
      property,
      header: `mcp-param-${(name as string).toLowerCase()}`,
      type: type as ParamHeader["type"],
    });
  }
  return headers;
}
