/**
 * A plan's curation of its tools (toolOverrides) and their result budgets (maxResultBytes),
 * applied once per Exposition version to the compiled tools of every kind (operations, custom
 * tools, and those of other protocols), before Discovery mode indexes them.
 *
 * An override names a tool by its name without overrides, and may change:
 * - `name`, `title`, `description`: what clients see (`title` is also `annotations.title`);
 * - `annotations`: each hint given replaces the tool's own;
 * - `fixedArguments`: each argument is removed from the published inputSchema (and from its
 *   `required`: @atrium/contract/tool-schema, as the control plane shows it; and from its
 *   `Mcp-Param-*` headers), always sent with the plan's value, and refused when a call sets it
 *   (the client cannot override it);
 * - `maxResultBytes`: the tool's budget instead of the plan's (result-budget.ts).
 *
 * Fail closed: an override naming no tool, a rename that collides, or a fixed argument the tool
 * does not have or whose value its schema refuses throws, so the Exposition is refused and
 * reported (a call without the plan's fixed value would reach more than the plan allows).
 */
import { withoutArguments } from "@atrium/contract/tool-schema";
import { type CatalogEntry, searchText } from "./discovery.ts";
import type { McpTool, ToolAnnotations } from "./mcp.ts";
import type { ResultBudget } from "./result-budget.ts";
import type { ToolRuntime } from "./runtime.ts";
import { isPlainObject } from "./schema.ts";
import type { CompiledExposition } from "./source.ts";
import type { ValidatorCompiler } from "./validator.ts";

type Plan = Pick<CompiledExposition["plan"], "toolOverrides" | "maxResultBytes">;
export type ToolOverride = NonNullable<Plan["toolOverrides"]>[string];

/** The catalog as the plan shows it: overridden tools replaced, every tool given its budget. */
export function curateTools(catalog: CatalogEntry[], plan: Plan, validators: ValidatorCompiler): CatalogEntry[] {
  const overrides = plan.toolOverrides ?? {};
  const names = new Set(catalog.map((entry) => entry.runtime.tool.name));
  const unknown = Object.keys(overrides).filter((name) => !names.has(name));
  if (unknown.length > 0)
    throw new Error(`toolOverrides names tools this Exposition does not have: ${unknown.join(", ")}`);
  if (Object.keys(overrides).length === 0 && plan.maxResultBytes === undefined) return catalog;

  const curated = catalog.map((entry) => {
    const override = Object.hasOwn(overrides, entry.runtime.tool.name) ? overrides[entry.runtime.tool.name] : undefined;
    const maxBytes = override?.maxResultBytes ?? plan.maxResultBytes;
    const budget = maxBytes === undefined ? undefined : budgetOf(entry.runtime, maxBytes, validators);
    if (!override) return budget ? { ...entry, runtime: { ...entry.runtime, budget } } : entry;
    return overridden(entry, override, budget, validators);
  });
  const seen = new Map<string, string>();
  for (const [index, entry] of curated.entries()) {
    const was = catalog[index]?.runtime.tool.name ?? "";
    const other = seen.get(entry.runtime.tool.name);
    if (other !== undefined)
      throw new Error(
        `toolOverrides gives ${was} the name ${entry.runtime.tool.name}, which ${other} has too: tool names must stay unique`,
      );
    seen.set(entry.runtime.tool.name, was);
  }
  return curated;
}

function budgetOf(runtime: ToolRuntime, maxBytes: number, validators: ValidatorCompiler): ResultBudget {
  const { tool, renderStructured } = runtime;
  // The shared validator cache makes this the tool's own output validator, not a second compile.
  const validate = tool.outputSchema && validators.compileExact(tool.outputSchema, `tool ${tool.name} output schema`);
  return {
    maxBytes,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    ...(validate ? { validate } : {}),
    ...(renderStructured ? { render: renderStructured } : {}),
  };
}

function overridden(
  entry: CatalogEntry,
  override: ToolOverride,
  budget: ResultBudget | undefined,
  validators: ValidatorCompiler,
): CatalogEntry {
  const original = entry.runtime;
  const from = original.tool.name;
  const fixed = override.fixedArguments ?? {};
  const fixedNames = Object.keys(fixed);
  const tool: McpTool = {
    ...original.tool,
    name: override.name ?? from,
    ...(override.title !== undefined ? { title: override.title } : {}),
    ...(override.description !== undefined ? { description: override.description } : {}),
    inputSchema:
      fixedNames.length > 0 ? withoutArguments(original.tool.inputSchema, fixedNames) : original.tool.inputSchema,
  };
  const annotations: ToolAnnotations = { ...original.tool.annotations, ...override.annotations };
  if (override.title !== undefined) annotations.title = override.title;
  if (Object.keys(annotations).length > 0) tool.annotations = annotations;
  if (fixedNames.length > 0) checkFixedArguments(original.tool, fixed, validators);

  const runtime: ToolRuntime = {
    ...original,
    tool,
    ...(budget ? { budget } : {}),
  };
  if (fixedNames.length > 0) {
    const withFixed = (args: unknown): unknown =>
      isPlainObject(args) || args === undefined ? { ...args, ...fixed } : args;
    runtime.validate = (args) => {
      const set = isPlainObject(args) ? fixedNames.filter((name) => Object.hasOwn(args, name)) : [];
      if (set.length > 0) return set.map((name) => `${name}: is fixed by the plan and cannot be set; leave it out`);
      return original.validate(withFixed(args));
    };
    runtime.buildRequest = (args) => original.buildRequest({ ...args, ...fixed });
    if (original.local) {
      const local = original.local;
      runtime.local = (args) => local({ ...args, ...fixed });
    }
    const paramHeaders = original.paramHeaders?.filter((header) => !Object.hasOwn(fixed, header.property));
    if (paramHeaders && paramHeaders.length > 0) runtime.paramHeaders = paramHeaders;
    else delete runtime.paramHeaders;
  }
  return {
    runtime,
    searchText: `${searchText([tool.name, tool.title, tool.description])} ${entry.searchText}`,
  };
}

/** Each fixed argument is one of the tool's and its value matches the argument's schema. */
function checkFixedArguments(tool: McpTool, fixed: Record<string, unknown>, validators: ValidatorCompiler): void {
  const properties = isPlainObject(tool.inputSchema.properties) ? tool.inputSchema.properties : {};
  const missing = Object.keys(fixed).filter((name) => !Object.hasOwn(properties, name));
  if (missing.length > 0)
    throw new Error(
      `toolOverrides.${tool.name}.fixedArguments names arguments the tool does not have: ${missing.join(", ")}`,
    );
  // The tool's own schema with nothing required: only the fixed values are judged, with its $defs.
  const { required: _required, ...partial } = tool.inputSchema;
  const violations = validators.compile(partial, `tool ${tool.name} fixed arguments`)(fixed);
  if (violations.length > 0)
    throw new Error(
      `toolOverrides.${tool.name}.fixedArguments do not match the tool's schema: ${violations.join("; ")}`,
    );
}
