/**
 * completion/complete: suggestions for a prompt argument (the `values` its Prompts record lists)
 * or a resource-template variable (the `enum`, `examples` and `example` of the Service operation
 * parameter the variable fills, found by aligning the template's backend path with the
 * operation's path and query). Suggestions start with what was typed, case-insensitively; at
 * most 100 are sent, with the total.
 */
import type { CompiledExposition } from "@atrium/contract";
import { ERROR, McpError } from "./protocol.ts";

const MAX_VALUES = 100;

/** Whether the Exposition has anything to complete: the `completions` capability is declared only then. */
export function offersCompletions(exposition: CompiledExposition): boolean {
  return exposition.resourceTemplates.length > 0 || exposition.prompts.some((p) => (p.arguments?.length ?? 0) > 0);
}

export function complete(exposition: CompiledExposition, params: Record<string, unknown>, invalidStatus: number) {
  const invalid = (message: string) => new McpError(ERROR.invalidParams, message, invalidStatus);
  const ref = params.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
  const argument = params.argument as { name?: unknown; value?: unknown } | undefined;
  if (typeof argument?.name !== "string" || typeof argument.value !== "string")
    throw invalid("params.argument must be {name, value} with string values");
  let candidates: string[];
  if (ref?.type === "ref/prompt") {
    const prompt = exposition.prompts.find((p) => p.name === ref.name);
    if (!prompt) throw invalid(`Unknown prompt: ${String(ref.name)}`);
    const declared = prompt.arguments?.find((a) => a.name === argument.name);
    if (!declared) throw invalid(`Prompt ${prompt.name} has no argument ${argument.name}`);
    candidates = declared.values ?? [];
  } else if (ref?.type === "ref/resource") {
    const template = exposition.resourceTemplates.find((t) => t.uriTemplate === ref.uri);
    if (!template) throw invalid(`Unknown resource template: ${String(ref.uri)}`);
    if (!template.uriTemplate.includes(`{${argument.name}}`))
      throw invalid(`Resource template ${template.uriTemplate} has no variable ${argument.name}`);
    candidates = variableValues(exposition.service.operations, template.fromBackend.path, argument.name);
  } else {
    throw invalid('params.ref must be {type: "ref/prompt", name} or {type: "ref/resource", uri}');
  }
  const typed = argument.value.toLowerCase();
  const matching = candidates.filter((value) => value.toLowerCase().startsWith(typed));
  return {
    completion: {
      values: matching.slice(0, MAX_VALUES),
      total: matching.length,
      hasMore: matching.length > MAX_VALUES,
    },
  };
}

type Operation = CompiledExposition["service"]["operations"][number];

/** The variable a `{{variable}}` placeholder names, or undefined for anything else. */
const placeholderOf = (text: string) => /^\{\{\s*([^}\s]+)\s*\}\}$/.exec(text)?.[1];

/** The suggestions the schemas give for `variable` of a template whose backend path is `backendPath`. */
function variableValues(operations: Operation[], backendPath: string, variable: string): string[] {
  const [path = "", query = ""] = backendPath.split("?", 2);
  const segments = path.split("/");
  const queryName = query
    .split("&")
    .map((pair) => pair.split("=", 2))
    .find(([, value]) => value !== undefined && placeholderOf(value) === variable)?.[0];
  const values = new Set<string>();
  for (const operation of operations) {
    const theirs = operation.path.split("/");
    if (operation.method !== "GET" || theirs.length !== segments.length) continue;
    let parameter: { name: string; in: "path" | "query" } | undefined;
    const aligned = segments.every((segment, i) => {
      const param = /^\{([^}]+)\}$/.exec(theirs[i] ?? "")?.[1];
      const filled = placeholderOf(segment);
      if (filled === variable && param !== undefined) parameter = { name: param, in: "path" };
      return segment === theirs[i] || (filled !== undefined && param !== undefined);
    });
    if (!aligned) continue;
    parameter ??= queryName === undefined ? undefined : { name: queryName, in: "query" };
    const schema = operation.parameters.find((p) => p.name === parameter?.name && p.in === parameter.in)?.schema as
      | { enum?: unknown[]; examples?: unknown[]; example?: unknown }
      | undefined;
    const found = [
      ...(Array.isArray(schema?.enum) ? schema.enum : []),
      ...(Array.isArray(schema?.examples) ? schema.examples : []),
      schema?.example,
    ];
    for (const value of found) if (typeof value === "string" || typeof value === "number") values.add(String(value));
  }
  return [...values];
}
