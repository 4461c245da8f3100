/**
 * Discovery mode (toolExposureMode "Discovery"), for APIs too large to list: clients see three
 * tools instead of one per operation.
 * - `search_tools` { query, limit? } → the best-matching tools' names, titles and descriptions;
 *   answered by the gateway. Every word of the query scores a tool: 3 when it is a word of the
 *   tool's name, 2 when it occurs in the name, 1 when it occurs in its title, description, tags,
 *   method or path; tools that score are listed best first (ties in listing order). An empty
 *   query lists tools in order.
 * - `describe_tool` { name } → the tool's full definition (inputSchema included); answered by the
 *   gateway.
 * - `invoke_tool` { name, arguments } → validates `arguments` against the named tool's schema
 *   (violations read `arguments.petId: …`); its `local` answer is `invoke`: the named tool's
 *   runtime and arguments, whose backend call the dispatcher makes (`buildRequest` delegates
 *   too). That runtime maps responses without the named tool's outputSchema guarantee, since
 *   invoke_tool declares no outputSchema (its `toUncheckedResult`, or plain `toolResult`).
 * The underlying tools keep the names, schemas and behaviour they have in PerOperation mode; they
 * are reachable only through these three.
 */
import type { CallToolResult, McpTool } from "./mcp.ts";
import { toolResult } from "./result.ts";
import { answeredLocally, type LocalAnswer, type ToolRuntime } from "./runtime.ts";
import type { ValidatorCompiler } from "./validator.ts";

/** An underlying tool, with the lower-case text that search_tools matches. */
export type CatalogEntry = { runtime: ToolRuntime; searchText: string };

export const SEARCH_TOOLS = "search_tools";
export const DESCRIBE_TOOL = "describe_tool";
export const INVOKE_TOOL = "invoke_tool";

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 50;
/** Descriptions in search results are cut to this many characters; describe_tool gives them whole. */
const SEARCH_DESCRIPTION_LENGTH = 300;

const camelBoundary = /([a-z0-9])([A-Z])/g;
const nonWord = /[^a-z0-9]+/;

/** The search text of a tool made from an imported operation: its words, then how it is called (`extra`). */
export function operationSearchText(
  name: string,
  operation: { summary?: string; description?: string; tags: string[] },
  ...extra: string[]
): string {
  return searchText([name, operation.summary, operation.description, operation.tags.join(" "), ...extra]);
}

/** Lower-case search text of a tool; camelCase and snake_case names are split into words too. */
export function searchText(parts: (string | undefined)[]): string {
  const name = parts[0] ?? "";
  const words = name.replace(camelBoundary, "$1 $2").replaceAll(/[_.-]/g, " ");
  return [words, ...parts]
    .filter((part) => part)
    .join(" ")
    .toLowerCase();
}

export function discoveryTools(catalog: CatalogEntry[], validators: ValidatorCompiler, apiName: string): ToolRuntime[] {
  const byName = new Map(catalog.map((entry) => [entry.runtime.tool.name, entry.runtime]));
  // invoke_tool declares no outputSchema, so its results need not conform to the named tool's (nor when trimmed)
  const invocable = new Map(
    catalog.map(({ runtime }) => [
      runtime.tool.name,
      {
        ...runtime,
        toResult: runtime.toUncheckedResult ?? toolResult,
        budget: runtime.budget && { ...runtime.budget, validate: undefined },
      },
    ]),
  );
  const indexed = catalog.map((entry) => {
    const name = entry.runtime.tool.name.toLowerCase();
    return { entry, name, nameWords: new Set(searchText([entry.runtime.tool.name]).split(nonWord)) };
  });
  const count = `${catalog.length} tool${catalog.length === 1 ? "" : "s"}`;

  const searchSchema: McpTool["inputSchema"] = {
    type: "object",
    properties: {
      query: {
        type: "string",
        description: "Words to look for in tool names and descriptions; empty lists tools in order.",
      },
      limit: {
        type: "integer",
        minimum: 1,
        maximum: MAX_LIMIT,
        default: DEFAULT_LIMIT,
        description: "How many tools to return at most.",
      },
    },
    required: ["query"],
    additionalProperties: false,
  };
  const describeSchema: McpTool["inputSchema"] = {
    type: "object",
    properties: { name: { type: "string", description: "The tool's name, as search_tools gives it." } },
    required: ["name"],
    additionalProperties: false,
  };
  const invokeSchema: McpTool["inputSchema"] = {
    type: "object",
    properties: {
      name: { type: "string", description: "The tool's name, as search_tools gives it." },
      arguments: { type: "object", description: "The tool's arguments, as its inputSchema (describe_tool) says." },
    },
    required: ["name"],
    additionalProperties: false,
  };
  const validateSearch = validators.compile(searchSchema, SEARCH_TOOLS);
  const validateDescribe = validators.compile(describeSchema, DESCRIBE_TOOL);
  const validateInvoke = validators.compile(invokeSchema, INVOKE_TOOL);
  const localAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

  const search: ToolRuntime = {
    tool: {
      name: SEARCH_TOOLS,
      title: "Search tools",
      description: `Finds tools of ${apiName} (${count}) by words in their names and descriptions. Then use describe_tool for a tool's arguments and invoke_tool to call it.`,
      inputSchema: searchSchema,
      annotations: { title: "Search tools", ...localAnnotations },
    },
    validate: (args) => validateSearch(args ?? {}),
    buildRequest: answeredLocally(SEARCH_TOOLS),
    local(args) {
      const query = String(args.query ?? "");
      const limit = typeof args.limit === "number" ? args.limit : DEFAULT_LIMIT;
      const words = query
        .toLowerCase()
        .split(nonWord)
        .filter((word) => word !== "");
      const scored: { entry: CatalogEntry; score: number }[] = [];
      for (const { entry, name, nameWords } of indexed) {
        let score = words.length === 0 ? 1 : 0;
        for (const word of words) {
          if (nameWords.has(word)) score += 3;
          else if (name.includes(word)) score += 2;
          else if (entry.searchText.includes(word)) score += 1;
        }
        if (score > 0) scored.push({ entry, score });
      }
      scored.sort((a, b) => b.score - a.score); // stable: ties keep listing order
      const tools = scored.slice(0, limit).map(({ entry: { runtime } }) => {
        const { name, title, description = "" } = runtime.tool;
        const short =
          description.length > SEARCH_DESCRIPTION_LENGTH
            ? `${description.slice(0, SEARCH_DESCRIPTION_LENGTH)}…`
            : description;
        return title ? { name, title, description: short } : { name, description: short };
      });
      return answer({ tools, matches: scored.length });
    },
    toResult: toolResult,
  };

  const describe: ToolRuntime = {
    tool: {
      name: DESCRIBE_TOOL,
      title: "Describe a tool",
      description: `Gives the full definition of a tool of ${apiName}: its description and the JSON Schema of its arguments (inputSchema).`,
      inputSchema: describeSchema,
      annotations: { title: "Describe a tool", ...localAnnotations },
    },
    validate: (args) => validateDescribe(args ?? {}),
    buildRequest: answeredLocally(DESCRIBE_TOOL),
    local(args) {
      const target = byName.get(String(args.name));
      if (!target) return { kind: "result", result: unknownTool(String(args.name)) };
      return answer(target.tool as unknown as Record<string, unknown>);
    },
    toResult: toolResult,
  };

  const invoke: ToolRuntime = {
    tool: {
      name: INVOKE_TOOL,
      title: "Invoke a tool",
      description: `Calls a tool of ${apiName} by name with its arguments. Find the tool with search_tools and its arguments with describe_tool first.`,
      inputSchema: invokeSchema,
      annotations: { title: "Invoke a tool", readOnlyHint: false, openWorldHint: true },
    },
    validate(args) {
      const violations = validateInvoke(args ?? {});
      if (violations.length > 0) return violations;
      const { name, arguments: inner } = args as { name: string; arguments?: unknown };
      const target = byName.get(name);
      if (!target) return [`name: no tool is named "${name}"; search_tools lists the tools`];
      return target
        .validate(inner)
        .map((violation) => (violation.startsWith("arguments:") ? violation : `arguments.${violation}`));
    },
    local(args) {
      const runtime = invocable.get(String(args.name));
      if (!runtime) return { kind: "result", result: unknownTool(String(args.name)) };
      return { kind: "invoke", runtime, args: (args.arguments ?? {}) as Record<string, unknown> };
    },
    buildRequest(args) {
      const target = byName.get(String(args.name));
      if (!target) throw new Error(`invoke_tool: no tool is named ${String(args.name)}`);
      return target.buildRequest((args.arguments ?? {}) as Record<string, unknown>);
    },
    toResult: toolResult,
  };

  return [search, describe, invoke];
}

function answer(value: Record<string, unknown>): LocalAnswer {
  return {
    kind: "result",
    result: { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value },
  };
}

function unknownTool(name: string): CallToolResult {
  return {
    content: [{ type: "text", text: `No tool is named "${name}". search_tools lists the tools.` }],
    isError: true,
  };
}
