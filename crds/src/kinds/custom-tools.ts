/**
 * CustomTools: extra MCP tools declared as HTTP request templates over a Service's backend.
 */
import { z } from "zod";
import { artifactStatus, listMap, objectRef } from "../common.ts";
import { defineKind } from "../kind.ts";
import { unknownFormatProblem } from "../known-formats.ts";
import { withRules } from "../rules.ts";

/** MCP tool names: 1-128 of letters, digits, '_', '-', '.'. */
export const toolName = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,128}$/, { message: "must be 1-128 letters, digits, '_', '-' or '.'" });

const template = z.string().max(65536);

export const toolAnnotations = z
  .object({
    readOnlyHint: z.boolean().optional().describe("The tool does not modify its environment."),
    destructiveHint: z.boolean().optional().describe("The tool may perform destructive updates."),
    idempotentHint: z.boolean().optional().describe("Calling it again with the same arguments has no further effect."),
    openWorldHint: z.boolean().optional().describe("The tool talks to an open world of external entities."),
  })
  .describe("MCP tool annotations; hints for clients, not guarantees.");

/** Keywords whose values are data, not schemas: a `pattern` member there is no pattern. */
const dataKeywords = new Set(["enum", "const", "default", "examples", "example"]);

/**
 * Each `pattern`, `patternProperties` name and `format` of a schema that a strict JSON Schema
 * validator (the gateway's ajv, strict MCP clients) cannot compile: patterns ECMAScript's Unicode
 * mode refuses, formats ajv-formats does not know. A client that cannot compile one tool's schema
 * may drop the whole tool list.
 */
function incompilable(schema: unknown, path: PropertyKey[] = []): { path: PropertyKey[]; message: string }[] {
  if (Array.isArray(schema)) return schema.flatMap((item, index) => incompilable(item, [...path, index]));
  if (schema === null || typeof schema !== "object") return [];
  const found: { path: PropertyKey[]; message: string }[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (dataKeywords.has(key)) continue;
    const names = key === "patternProperties" && value !== null && typeof value === "object" ? Object.keys(value) : [];
    for (const [pattern, at] of [
      ...(key === "pattern" && typeof value === "string" ? [[value, [...path, key]] as const] : []),
      ...names.map((name) => [name, [...path, key, name]] as const),
    ]) {
      const problem = unicodeRegexProblem(pattern);
      if (problem !== undefined)
        found.push({
          path: [...at],
          message: `${JSON.stringify(pattern)} is no ECMAScript regular expression in Unicode mode, as JSON Schema validators compile patterns (${problem}): escape only what needs it (e.g. _ and # need no backslash)`,
        });
    }
    const formatProblem = key === "format" && typeof value === "string" ? unknownFormatProblem(value) : undefined;
    if (formatProblem !== undefined)
      found.push({
        path: [...path, key],
        message: `${formatProblem}: use one they know (date-time, email, uri, uuid…) or say it in the description`,
      });
    found.push(...incompilable(value, [...path, key]));
  }
  return found;
}

/** Why `pattern` is no ECMAScript regular expression in Unicode mode; undefined when it is one. */
export function unicodeRegexProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, "u");
    return undefined;
  } catch (error) {
    return (error instanceof Error ? error.message : String(error)).replace(
      /^Invalid regular expression: \/[\s\S]*\/u: /,
      "",
    );
  }
}

const objectSchema = z.looseObject({
  type: z.string().optional().describe('"object" when given: the arguments are a JSON object.'),
});
/** MCP tool arguments are a JSON object: the gateway forces `type: object`, so another type would be ignored. */
const objectTypeRule = {
  message: 'must be "object": MCP tool arguments are a JSON object',
  path: ["type"],
  cel: "!has(self.type) || self.type == 'object'",
  holds: (schema: Record<string, unknown>) => schema.type === undefined || schema.type === "object",
};
const toolInputSchema = withRules(objectSchema, [
  objectTypeRule,
  {
    whyNotCel: "CEL cannot compile an ECMAScript regular expression nor knows ajv-formats' formats",
    violations: (schema) => incompilable(schema),
  },
]);
const inputSchemaDescription = "JSON Schema (an object schema) of the arguments; no arguments when absent.";

/**
 * A custom tool as the change stream carries it to the gateways: without the pattern and format
 * rule, which writers apply (see `customTool`), since records stored before it may break it; a
 * gateway compiles such a schema without its patterns (ignoring unknown formats) and logs a warning.
 */
export const storedCustomTool = z
  .object({
    name: toolName.describe("Tool name, unique within the Exposition's tools."),
    title: z.string().max(256).optional().describe("Human-readable title."),
    description: z.string().min(1).max(8192).describe("What the tool does, for the model."),
    inputSchema: withRules(objectSchema, [objectTypeRule]).optional().describe(inputSchemaDescription),
    request: z
      .object({
        method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]).describe("HTTP method."),
        path: template
          .regex(/^\//, { message: "must start with '/'" })
          .describe("Path under the backend endpoint; {{argument}} placeholders are URL-encoded."),
        query: z.record(z.string(), template).optional().describe("Query parameters; values may hold {{argument}}."),
        headers: z.record(z.string(), template).optional().describe("Headers; values may hold {{argument}}."),
        body: template.optional().describe("Request body template; {{argument}} placeholders are JSON-encoded."),
      })
      .describe("The backend request the tool makes."),
    annotations: toolAnnotations.optional(),
  })
  .describe("A tool defined by a request template.");

/** A custom tool as REST, the webhook, the CLI and the operator accept it. */
export const customTool = storedCustomTool
  .extend({ inputSchema: toolInputSchema.optional().describe(inputSchemaDescription) })
  .describe("A tool defined by a request template.");

const toolsOf = (tool: typeof storedCustomTool) =>
  listMap(tool, "name").min(1).describe("The tools, added to those derived from the Service's operations.");

export const customToolsSpec = z
  .object({ serviceRef: objectRef("Service"), tools: toolsOf(customTool) })
  .describe("Extra tools of a Service, served by every Exposition of it.");

/** As stored, for answers that show records written before the pattern and format rule (see `storedCustomTool`). */
export const storedCustomToolsSpec = customToolsSpec.extend({ tools: toolsOf(storedCustomTool) });

export const CustomTools = defineKind({
  kind: "CustomTools",
  plural: "customtools",
  shortNames: ["ctools"],
  description: "Extra MCP tools of a Service, declared as HTTP request templates over its backend.",
  spec: customToolsSpec,
  status: artifactStatus,
});
