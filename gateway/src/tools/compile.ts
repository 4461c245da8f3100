/**
 * A CompiledExposition into its MCP tools, once per Exposition version: everything a call needs
 * (validators, path templates, serializers) is compiled here, so a call does no compiling.
 *
 * Tools: one per operation (`exposition.service.operations`, already filtered by the plan), in
 * document order, then one per custom tool, in the order given.
 *
 * Names: an operation's tool is named after its operationId, a custom tool keeps its declared
 * name; characters outside `[A-Za-z0-9_.-]` become `_` and names are cut to 128 characters.
 * Custom tool names are claimed first, since their author chose them and cannot rename what the
 * gateway would rename: an operation whose name is taken (by a custom tool or an earlier
 * operation) gets `_2`, `_3`, …, in document order, so the same Exposition always gets the same
 * names.
 *
 * An operation carrying a gRPC call recipe becomes a tool that calls the method (grpc/tool.ts).
 *
 * The plan's toolOverrides then rename, reword and narrow tools, and give each its result budget
 * (overrides.ts); a toolOverrides entry that cannot apply refuses the whole Exposition.
 *
 * In "Discovery" mode only search_tools, describe_tool and invoke_tool are listed (discovery.ts).
 *
 * An operation carrying a GraphQL call recipe becomes a tool that calls GraphQL (graphql-tool.ts);
 * the others call the backend as OpenAPI describes them (operation-tool.ts).
 *
 * A tool that fails to compile is left out with a warning; a schema ajv cannot compile only
 * weakens that tool's validation (validator.ts). Neither fails the Exposition.
 */
import { grpcToolCompiler } from "../grpc/tool.ts";
import { filterTools } from "../output-filters/tool.ts";
import { compileCustomTool } from "./custom-tool.ts";
import { type CatalogEntry, discoveryTools } from "./discovery.ts";
import { compileGraphqlTool } from "./graphql-tool.ts";
import { defaultToolNames } from "./naming.ts";
import { compileOperationTool } from "./operation-tool.ts";
import { curateTools } from "./overrides.ts";
import type { ToolRuntime, Toolset } from "./runtime.ts";
import type { CompiledExposition } from "./source.ts";
import { createValidatorCompiler } from "./validator.ts";

export type { ToolRuntime, Toolset };

export function compileToolset(exposition: CompiledExposition): Toolset {
  const validators = createValidatorCompiler();
  const warnings = validators.warnings;
  const { customTools: customNames, operations: operationNames } = defaultToolNames(
    exposition.customTools.map((custom) => custom.name),
    exposition.service.operations.map((operation) => operation.operationId),
  );

  const compileGrpc = grpcToolCompiler(exposition);
  const catalog: CatalogEntry[] = [];
  const attempt = (label: string, compile: () => CatalogEntry): void => {
    try {
      catalog.push(compile());
    } catch (error) {
      warnings.push(`${label}: left out (${error instanceof Error ? error.message : String(error)})`);
    }
  };
  exposition.service.operations.forEach((operation, index) => {
    const name = operationNames[index] ?? operation.operationId;
    attempt(`operation ${operation.operationId}`, () =>
      operation.grpc
        ? compileGrpc(operation, operation.grpc, name, validators)
        : operation.graphql
          ? compileGraphqlTool(operation, operation.graphql, name, validators)
          : compileOperationTool(operation, name, validators),
    );
  });
  exposition.customTools.forEach((custom, index) => {
    const name = customNames[index] ?? custom.name;
    attempt(`custom tool ${custom.name}`, () => compileCustomTool(custom, name, validators));
  });
  // The plan's output filters, on the tools as the Service names them (output-filters/tool.ts).
  filterTools(catalog, exposition.plan.toolOutputFilters, validators);

  // The plan's overrides and budgets, before Discovery mode indexes the tools (overrides.ts).
  const curated = curateTools(catalog, exposition.plan, validators);
  const runtimes =
    exposition.plan.toolExposureMode === "Discovery"
      ? discoveryTools(curated, validators, exposition.service.name)
      : curated.map((entry) => entry.runtime);
  const byName = new Map(runtimes.map((runtime) => [runtime.tool.name, runtime]));
  return {
    tools: runtimes.map((runtime) => runtime.tool),
    get: (name) => byName.get(name),
    warnings,
  };
}
