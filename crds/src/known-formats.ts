/**
 * The `format`s a strict JSON Schema validator knows: ajv's `Ajv2020` with ajv-formats, as the
 * gateways and most MCP clients compile tool schemas. In its default (strict) mode such a validator
 * refuses to compile a schema naming any other format, and a client that cannot compile one tool's
 * schema may drop the whole tool list.
 */
import { formatNames } from "ajv-formats/dist/formats.js";

const known: ReadonlySet<string> = new Set(formatNames);

/** Why `format` would fail a strict validator's compilation; undefined when it knows the format. */
export function unknownFormatProblem(format: string): string | undefined {
  if (known.has(format)) return undefined;
  return `strict JSON Schema validators (ajv's Ajv2020 with ajv-formats, as MCP clients compile tool schemas) know no format ${JSON.stringify(format)} and refuse the whole schema`;
}
