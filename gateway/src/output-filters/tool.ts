/**
 * A plan's output filters (toolOutputFilters) on its compiled tools, once per Exposition version,
 * before its overrides and budgets (so they name tools as the Service does, and the budget fits
 * the filtered result). A tool without a filter is left as it is: its calls pay nothing.
 *
 * A filtered tool lists the outputSchema derived through its filter (@atrium/contract), or none
 * where a patch makes that impossible (a warning says which). Its runtime gets `outputFilter`,
 * which the dispatcher applies to the mapped result of every backend answer, Discovery mode's
 * invoke_tool included, before the result budget:
 * - an isError result passes unchanged (its text is the backend's error, not the data filtered),
 *   except what data it shows: a GraphQL answer's partial data is filtered, and the body a 2xx
 *   answer's error shows after its first block is left out;
 * - a successful JSON result is replaced by the filtered document: structuredContent, and one
 *   text block with it as JSON or TOON; it is checked against the derived schema (a result that
 *   fails it becomes an isError result, as for an unfiltered tool);
 * - any other successful result with a body (not JSON, or over the size limit, so only text)
 *   becomes an isError result: passing it on would show what the filter drops.
 * The bytes of the answer and of the filtered text are reported per tool (metrics.ts).
 */
import { deriveOutputSchema } from "@atrium/contract/output-filter";
import type { ToolOutputFilter } from "@atrium/crds";
import { encode } from "@toon-format/toon";
import type { CatalogEntry } from "../tools/discovery.ts";
import type { CallToolResult, McpTool } from "../tools/mcp.ts";
import { type BackendResponse, conformingResult, toolResult } from "../tools/result.ts";
import type { Validator, ValidatorCompiler } from "../tools/validator.ts";
import { compileDocumentFilter, type DocumentFilter } from "./document.ts";

/** Told the bytes of a filtered tool's answer and of what its filter made of it. */
export type FilteredBytes = (tool: string, before: number, after: number) => void;

export type OutputFilter = (
  result: CallToolResult,
  response: BackendResponse,
  onBytes?: FilteredBytes,
) => CallToolResult;

/** Replaces each filtered tool of the catalog (in place); a filter naming no tool here is left out with a warning. */
export function filterTools(
  catalog: CatalogEntry[],
  filters: Record<string, ToolOutputFilter> | undefined,
  validators: ValidatorCompiler,
): void {
  if (!filters) return;
  const names = Object.keys(filters);
  if (names.length === 0) return;
  const listed = new Set(catalog.map((entry) => entry.runtime.tool.name));
  for (const name of names) {
    // Nothing of it is served, so nothing is shown unfiltered: a plan's excluded operation, a tool left out.
    if (!listed.has(name)) validators.warnings.push(`toolOutputFilters.${name}: no such tool here, filter not used`);
  }
  catalog.forEach((entry, index) => {
    const { name } = entry.runtime.tool;
    const filter = Object.hasOwn(filters, name) ? filters[name] : undefined;
    if (filter) catalog[index] = filtered(entry, filter, validators);
  });
}

function filtered(entry: CatalogEntry, filter: ToolOutputFilter, validators: ValidatorCompiler): CatalogEntry {
  const { runtime } = entry;
  const { name, outputSchema, ...rest } = runtime.tool;
  let tool: McpTool = { name, ...rest };
  let validate: Validator | undefined;
  if (outputSchema) {
    const derived = deriveOutputSchema(outputSchema, filter);
    if ("problem" in derived) validators.warnings.push(`tool ${name}: output filter: ${derived.problem}`);
    else {
      const schema = derived.schema as McpTool["inputSchema"];
      validate = validators.compileExact(schema, `tool ${name} filtered output schema`, "result");
      if (validate) tool = { ...tool, outputSchema: schema };
    }
  }
  const document = compileDocumentFilter(filter);
  const outputFilter: OutputFilter = (result, response, onBytes) => {
    if (result.isError) {
      if (result.structuredContent !== undefined) return partial(result, document, validate);
      // A 2xx answer the tool reads as an error (a GraphQL answer that is none, or over the size
      // limit) shows the body after the gateway's own first block: the data the filter drops.
      const ok = response.status >= 200 && response.status < 300;
      return ok && result.content.length > 1 ? { ...result, content: result.content.slice(0, 1) } : result;
    }
    const structured = result.structuredContent;
    if (structured === undefined) return response.body.length === 0 ? result : notFiltered(result);
    const out = document(structured);
    onBytes?.(name, response.body.length, Buffer.byteLength(out.text));
    const made: CallToolResult = { content: [{ type: "text", text: out.text }], structuredContent: out.structured };
    if (result._meta) made._meta = result._meta;
    return validate ? conformingResult(made, validate) : made;
  };
  // A result trimmed to its budget (result-budget.ts) is written again in the filter's format.
  const renderStructured = filter.format === "toon" ? (value: unknown) => encode(value) : undefined;
  // The answer is mapped without the tool's own outputSchema check: an answer breaking it only in
  // branches the filter drops is served, and one the check refuses would show its whole body in
  // an error the filter passes on. The derived schema checks the filtered result instead.
  const toResult = outputSchema ? (runtime.toUncheckedResult ?? toolResult) : runtime.toResult;
  return {
    ...entry,
    runtime: { ...runtime, tool, toResult, outputFilter, ...(renderStructured ? { renderStructured } : {}) },
  };
}

/**
 * An error result with data beside it (a GraphQL answer with errors and partial data): the
 * errors' text is kept, the data shown only filtered (its whole JSON follows the first marker).
 */
function partial(result: CallToolResult, document: DocumentFilter, validate: Validator | undefined): CallToolResult {
  const out = document(result.structuredContent as Record<string, unknown>);
  const first = result.content[0];
  const text = first?.type === "text" ? first.text : "";
  const at = text.search(/(?:^|\n)(?:Partial data|Data):\n/);
  const head = at >= 0 ? text.slice(0, at) : "The backend answered an error with data";
  const made: CallToolResult = {
    content: [{ type: "text", text: `${head}\nPartial data:\n${out.text}` }],
    isError: true,
  };
  if (!validate || validate(out.structured).length === 0) made.structuredContent = out.structured;
  if (result._meta) made._meta = result._meta;
  return made;
}

function notFiltered(result: CallToolResult): CallToolResult {
  const text =
    "The backend's answer is not JSON within the size limit, so this tool's output filter cannot apply: it is not passed on.";
  return { content: [{ type: "text", text }], isError: true, ...(result._meta ? { _meta: result._meta } : {}) };
}
