/**
 * One operation of a GraphQL Service (it carries a `graphql` call recipe) into one tool that
 * calls GraphQL over HTTP: `POST` to the plan's endpoint itself (nothing appended), JSON
 * `{query, operationName, variables}` whose variables are the tool's arguments, as they are.
 *
 * The importer made the arguments' schema (the request body's) and the selected data's schema
 * (the 200 answer's: `{<field>: …}`, GraphQL's `data`), so what is listed is what the document
 * asks for. Results: graphql-result.ts. Everything else a call goes through (auth, secrets,
 * header policy, timeouts, breaker, limits, audit) is the same as for any other tool: only the
 * request and the reading of the answer differ. The definition is body-arguments.ts's.
 */
import type { GraphqlCall } from "@atrium/contract";
import { bodyArgumentsTool } from "./body-arguments.ts";
import { type CatalogEntry, operationSearchText } from "./discovery.ts";
import { graphqlResult } from "./graphql-result.ts";
import type { BackendRequest } from "./request.ts";
import type { ToolRuntime } from "./runtime.ts";
import type { Operation } from "./source.ts";
import type { ValidatorCompiler } from "./validator.ts";

/** GraphQL over HTTP: the spec's own media type first, plain JSON for servers that predate it. */
export const GRAPHQL_ACCEPT = "application/graphql-response+json, application/json";

export function compileGraphqlTool(
  operation: Operation,
  call: GraphqlCall,
  name: string,
  validators: ValidatorCompiler,
): CatalogEntry {
  const what = `GraphQL ${call.operationType} ${call.fieldName}`;
  const { tool, validateArguments, validateOutput } = bodyArgumentsTool(operation, name, validators, what);
  // The document and its name are the same on every call: serialized once.
  const prefix = `{"query":${JSON.stringify(call.document)},"operationName":${JSON.stringify(call.operationName)},"variables":`;
  const runtime: ToolRuntime = {
    tool,
    validate: (args) => validateArguments(args ?? {}),
    buildRequest: (args): BackendRequest => ({
      method: "POST",
      path: "",
      headers: { accept: GRAPHQL_ACCEPT },
      body: `${prefix}${JSON.stringify(args)}}`,
      contentType: "application/json",
    }),
    route: { template: "", graphql: { type: call.operationType, name: call.operationName } },
    toResult: (response, options) => graphqlResult(response, options, validateOutput),
    toUncheckedResult: (response, options) => graphqlResult(response, options, undefined),
  };
  return {
    runtime,
    searchText: operationSearchText(name, operation, call.operationType, call.fieldName),
  };
}
