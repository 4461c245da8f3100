/**
 * The import report's entries for what a GraphQL schema has and no tool publishes, each with its
 * reason: the import goes on without them (the rest of the schema is publishable).
 */
import type { ImportWarning, ImportWarningCode } from "@atrium/contract/rest";
import type { GraphQLSchema } from "graphql";

type Warning = ImportWarning & { code: ImportWarningCode };

/** Subscription fields: a tool call has one answer, a subscription a stream of them. */
export function notExposedWarnings(schema: GraphQLSchema): Warning[] {
  return Object.values(schema.getSubscriptionType()?.getFields() ?? {}).map((field) => ({
    code: "GRAPHQL_SUBSCRIPTION_NOT_EXPOSED",
    message: `Subscription field "${field.name}" is not published as a tool: a tool call has one answer, a subscription a stream of events`,
  }));
}

/** A root field whose generated selection would take the Service past the fields budget. */
export function selectionTooLargeWarning(operationType: string, fieldName: string, maxFields: number): Warning {
  return {
    code: "GRAPHQL_SELECTION_TOO_LARGE",
    message: `${operationType === "query" ? "Query" : "Mutation"} field "${fieldName}" is not published as a tool: with the fields selected before it, its generated selection would take the Service past ${maxFields} selected fields`,
  };
}
