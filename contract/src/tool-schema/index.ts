/**
 * A tool's schemas as clients see them, the part the control plane and the gateway share: the
 * inputSchema of each kind of tool, the plan's fixed arguments dropped from it, the outputSchema,
 * the preparation every published schema goes through, and the `Mcp-Param-*` annotations.
 */
export {
  BODY_PROPERTY,
  type BoundParameter,
  bindParameters,
  bodyInputSchema,
  customToolInputSchema,
  isFramingHeader,
  isSettableHeader,
  type ObjectSchema,
  openApiPlaceholder,
  operationInputSchema,
  parameterInputSchema,
  type Warn,
  withoutArguments,
} from "./input.ts";
export {
  answerSchema,
  customToolOutputSchema,
  isJsonMediaType,
  mediaTypeOf,
  operationOutputSchema,
} from "./output.ts";
export { annotateParamHeaders, PARAM_HEADER_KEYWORD, type ParamHeader } from "./param-headers.ts";
export {
  hoistDefs,
  isPlainObject,
  type JsonSchema,
  type PrepareOptions,
  prepareSchema,
  type SchemaUse,
} from "./prepare.ts";
