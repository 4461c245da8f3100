/**
 * CustomTools: extra MCP tools of a Service, each an HTTP request template over its backend (an
 * openapi Service) or its own GraphQL document (a graphql Service).
 */
import { z } from "zod";
import { artifactStatus, listMap, objectRef } from "../common.ts";
import { defineKind } from "../kind.ts";
import { unknownFormatProblem } from "../known-formats.ts";
import { exactlyOneOf, withRules } from "../rules.ts";

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
 * may drop the whole tool list. Walked with a stack, not recursion: the webhook reviews what the
 * API server passes, nested thousands deep, which recursion here overflowed (a 500, not a refusal).
 */
function incompilable(schema: unknown): { path: PropertyKey[]; message: string }[] {
  // Each entry links to its parent: a path is only spelled out for a problem.
  type Entry = { key: PropertyKey; value: unknown; parent: Entry | undefined };
  const pathOf = (entry: Entry): PropertyKey[] => {
    const keys: PropertyKey[] = [];
    for (let at: Entry | undefined = entry; at; at = at.parent) keys.unshift(at.key);
    return keys;
  };
  const found: { path: PropertyKey[]; message: string }[] = [];
  const stack: Entry[] = [];
  // Children pushed last first, so they are visited (and problems listed) in document order.
  const pushChildren = (node: unknown, parent: Entry | undefined) => {
    if (node === null || typeof node !== "object") return;
    const entries: [PropertyKey, unknown][] = Array.isArray(node) ? [...node.entries()] : Object.entries(node);
    for (const [key, value] of entries.reverse()) stack.push({ key, value, parent });
  };
  pushChildren(schema, undefined);
  for (let entry = stack.pop(); entry; entry = stack.pop()) {
    const { key, value } = entry;
    if (typeof key === "string" && dataKeywords.has(key)) continue;
    const names = key === "patternProperties" && value !== null && typeof value === "object" ? Object.keys(value) : [];
    for (const [pattern, name] of [
      ...(key === "pattern" && typeof value === "string" ? [[value, undefined] as const] : []),
      ...names.map((name) => [name, name] as const),
    ]) {
      const problem = unicodeRegexProblem(pattern);
      if (problem !== undefined)
        found.push({
          path: name === undefined ? pathOf(entry) : [...pathOf(entry), name],
          message: `${JSON.stringify(pattern)} is no ECMAScript regular expression in Unicode mode, as JSON Schema validators compile patterns (${problem}): escape only what needs it (e.g. _ and # need no backslash)`,
        });
    }
    const formatProblem = key === "format" && typeof value === "string" ? unknownFormatProblem(value) : undefined;
    if (formatProblem !== undefined)
      found.push({
        path: pathOf(entry),
        message: `${formatProblem}: use one they know (date-time, email, uri, uuid…) or say it in the description`,
      });
    pushChildren(value, entry);
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
/** Every pattern and format of the schema compiles in a strict JSON Schema validator. */
const compilableRule = {
  whyNotCel: "CEL cannot compile an ECMAScript regular expression nor knows ajv-formats' formats",
  violations: (schema: Record<string, unknown>) => incompilable(schema),
};
const toolInputSchema = withRules(objectSchema, [objectTypeRule, compilableRule]);
const inputSchemaDescription = "JSON Schema (an object schema) of the arguments; no arguments when absent.";

const graphqlName = z.string().regex(/^[_A-Za-z][_0-9A-Za-z]*$/, { message: "must be a GraphQL name" });

/** A custom tool's own GraphQL document, as written. */
const graphqlDocument = z
  .object({
    document: z
      .string()
      .min(1)
      .max(65536)
      .describe(
        "A GraphQL executable document (a query or a mutation, with fragments if wanted), validated against the Service's schema when written; its variables are the tool's arguments.",
      ),
    operationName: graphqlName
      .optional()
      .describe("Which named operation of the document to run; needed only when it holds several."),
    outputSchema: withRules(
      z.looseObject({ type: z.literal("object").describe('"object": the answer\'s data is a JSON object.') }),
      [compilableRule],
    )
      .optional()
      .describe("JSON Schema (an object schema) of the answer's data; derived from the selection when absent."),
  })
  .describe(
    "The tool runs its own GraphQL document on a graphql Service's endpoint (instead of an HTTP request template). The operation must be named; inputSchema is derived from its variables when absent.",
  );

/** As stored and streamed: the control plane resolved the operation and derived the output schema. */
const storedGraphqlDocument = graphqlDocument
  .extend({
    operationName: graphqlName.describe("The operation the gateway runs (sent as operationName)."),
    operationType: z.enum(["query", "mutation"]).describe("The operation's type: a query is read-only."),
    fieldName: z.string().min(1).describe("The root fields the operation selects, comma-separated."),
  })
  .describe("A custom tool's GraphQL document, as the control plane resolved it.");

const requestTemplate = z
  .object({
    method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]).describe("HTTP method."),
    path: template
      .regex(/^\//, { message: "must start with '/'" })
      .describe("Path under the backend endpoint; {{argument}} placeholders are URL-encoded."),
    query: z.record(z.string(), template).optional().describe("Query parameters; values may hold {{argument}}."),
    headers: z.record(z.string(), template).optional().describe("Headers; values may hold {{argument}}."),
    body: template.optional().describe("Request body template; {{argument}} placeholders are JSON-encoded."),
  })
  .describe("The backend request the tool makes (an openapi Service).");

const storedCustomToolFields = z.object({
  name: toolName.describe("Tool name, unique within the Exposition's tools."),
  title: z.string().max(256).optional().describe("Human-readable title."),
  description: z.string().min(1).max(8192).describe("What the tool does, for the model."),
  inputSchema: withRules(objectSchema, [objectTypeRule]).optional().describe(inputSchemaDescription),
  request: requestTemplate.optional(),
  graphql: storedGraphqlDocument.optional(),
  annotations: toolAnnotations.optional(),
});
const toolDescription = "A tool defined by a request template or by its own GraphQL document.";

/**
 * A custom tool as the change stream carries it to the gateways: without the pattern and format
 * rule, which writers apply (see `customTool`), since records stored before it may break it; a
 * gateway compiles such a schema without its patterns (ignoring unknown formats) and logs a warning.
 */
export const storedCustomTool = exactlyOneOf(storedCustomToolFields, ["request", "graphql"]).describe(toolDescription);

/** A custom tool as REST, the webhook, the CLI and the operator accept it. */
const customToolFields = storedCustomToolFields.extend({
  inputSchema: toolInputSchema.optional().describe(inputSchemaDescription),
  graphql: graphqlDocument.optional(),
});
export const customTool = exactlyOneOf(customToolFields, ["request", "graphql"]).describe(toolDescription);

const toolsOf = <T extends typeof storedCustomTool | typeof customTool>(tool: T) =>
  listMap(tool, "name").min(1).describe("The tools, added to those derived from the Service's operations.");

export const customToolsSpec = z
  .object({ serviceRef: objectRef("Service"), tools: toolsOf(customTool) })
  .describe("Extra tools of a Service, served by every Exposition of it.");

/**
 * As stored, for answers: records written before the pattern and format rule (see
 * `storedCustomTool`), and GraphQL documents as the control plane resolved them.
 */
export const storedCustomToolsSpec = customToolsSpec.extend({ tools: toolsOf(storedCustomTool) });

export const CustomTools = defineKind({
  kind: "CustomTools",
  plural: "customtools",
  shortNames: ["ctools"],
  description:
    "Extra MCP tools of a Service: HTTP request templates over its backend (openapi), or their own GraphQL documents (graphql).",
  spec: customToolsSpec,
  status: artifactStatus,
});
