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
 * In "Discovery" mode only search_tools, describe_tool and invoke_tool are listed (discovery.ts).
 *
 * A tool that fails to compile, or one of a GraphQL Service (plans on those are refused until the
 * gateways call GraphQL), is left out with a warning; a schema ajv cannot compile only
 * weakens that tool's validation (validator.ts). Neither fails the Exposition.
 */
import { compileCustomTool } from "./custom-tool.ts";
import { type CatalogEntry, discoveryTools } from "./discovery.ts";
import { createNameAllocator, MAX_TOOL_NAME_LENGTH, validName } from "./naming.ts";
import { compileOperationTool } from "./operation-tool.ts";
import type { ToolRuntime, Toolset } from "./runtime.ts";
import type { CompiledExposition } from "./source.ts";
import { createValidatorCompiler } from "./validator.ts";

export type { ToolRuntime, Toolset };

export function compileToolset(exposition: CompiledExposition): Toolset {
  const validators = createValidatorCompiler();
  const warnings = validators.warnings;
  const names = createNameAllocator(MAX_TOOL_NAME_LENGTH);
  const customNames = exposition.customTools.map((custom) =>
    names.claim(validName(custom.name, MAX_TOOL_NAME_LENGTH, "tool")),
  );
  const operationNames = exposition.service.operations.map((operation) =>
    names.claim(validName(operation.operationId, MAX_TOOL_NAME_LENGTH, "operation")),
  );

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
    attempt(`operation ${operation.operationId}`, () => {
      // Fail closed: called as plain HTTP, a GraphQL operation would send its arguments as the body.
      if (operation.graphql) throw new Error("a GraphQL operation, which this gateway does not call yet");
      return compileOperationTool(operation, name, validators);
    });
  });
  exposition.customTools.forEach((custom, index) => {
    const name = customNames[index] ?? custom.name;
    attempt(`custom tool ${custom.name}`, () => compileCustomTool(custom, name, validators));
  });

  const runtimes =
    exposition.plan.toolExposureMode === "Discovery"
      ? discoveryTools(catalog, validators, exposition.service.name)
      : catalog.map((entry) => entry.runtime);
  const byName = new Map(runtimes.map((runtime) => [runtime.tool.name, runtime]));
  return {
    tools: runtimes.map((runtime) => runtime.tool),
    get: (name) => byName.get(name),
    warnings,
  };
}
