/**
 * A custom tool's own GraphQL document (CustomTools on a graphql Service), checked and resolved
 * when the tool is written: parsed and validated against the Service's schema (graphql-js's
 * `validate`), one named query or mutation chosen (by `operationName` when the document holds
 * several), the arguments' schema derived from its variable definitions as the importer derives
 * it from a field's arguments (input-schema.ts), and the data's schema from its selection, with
 * the generated selection's mapping of types (selection.ts): aliases, fragments and `__typename`
 * included. A schema given explicitly is kept. The result is what the gateway's GraphQL call path
 * runs (the stream's custom tool carries the call recipe).
 */
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLArgument,
  type GraphQLCompositeType,
  type GraphQLError,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  isCompositeType,
  isEnumType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionSetNode,
  typeFromAST,
  validate,
  valueFromAST,
} from "graphql";
import { describeLocation } from "../openapi/errors.ts";
import type { JsonObject } from "../openapi/plain-json.ts";
import { type InputDefs, objectSchema } from "./input-schema.ts";
import { builtInScalarType } from "./scalars.ts";
import { describe, nullable } from "./selection.ts";

export type GraphqlDocumentInput = { document: string; operationName?: string; outputSchema?: JsonObject };

export type ResolvedGraphqlDocument = {
  document: string;
  operationName: string;
  operationType: "query" | "mutation";
  fieldName: string;
  outputSchema: JsonObject;
  /** Derived from the variables: the tool's inputSchema when it gives none. */
  inputSchema: JsonObject;
};

/** Why a document cannot be a tool, said so that its author can fix it; `field` is under `graphql`. */
export class GraphqlDocumentRefused extends Error {
  readonly field: "document" | "operationName";
  constructor(field: "document" | "operationName", message: string) {
    super(message);
    this.field = field;
  }
}

/** At most this many tokens per document: a bound on the parser's work and nesting. */
const maxTokens = 20_000;

export function resolveGraphqlDocument(schema: GraphQLSchema, input: GraphqlDocumentInput): ResolvedGraphqlDocument {
  try {
    return resolve(schema, input);
  } catch (error) {
    // A selection nested past the stack: the walk is recursive, as graphql-js's own.
    if (error instanceof RangeError)
      throw new GraphqlDocumentRefused("document", "the document is nested too deeply: select fewer levels");
    throw error;
  }
}

function resolve(schema: GraphQLSchema, input: GraphqlDocumentInput): ResolvedGraphqlDocument {
  let document: DocumentNode;
  try {
    document = parse(input.document, { maxTokens });
  } catch (error) {
    throw new GraphqlDocumentRefused("document", `not a GraphQL document: ${located([error as GraphQLError])}`);
  }
  const problems = validate(schema, document);
  if (problems.length > 0)
    throw new GraphqlDocumentRefused("document", `not valid against the Service's schema: ${located(problems)}`);
  const operation = chosenOperation(document, input.operationName);
  const operationType = operation.operation;
  if (operationType === "subscription")
    throw new GraphqlDocumentRefused("document", "a subscription cannot be a tool: use a query or a mutation");
  const operationName = operation.name?.value;
  if (!operationName)
    throw new GraphqlDocumentRefused(
      "document",
      "name the operation (query GetPet($id: ID!) { … }): the gateway sends its name as operationName",
    );
  const root = operationType === "query" ? schema.getQueryType() : schema.getMutationType();
  if (!root) throw new GraphqlDocumentRefused("document", `the schema has no ${operationType} type`); // validate says so first
  const fragments = new Map(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const data = selectedProperties(schema, fragments, operation.selectionSet, root);
  return {
    document: input.document,
    operationName,
    operationType,
    fieldName: Object.keys(data).join(", "),
    outputSchema: input.outputSchema ?? { type: "object", properties: data },
    inputSchema: variablesSchema(schema, operation),
  };
}

function chosenOperation(document: DocumentNode, name: string | undefined): OperationDefinitionNode {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (name !== undefined) {
    const named = operations.find((operation) => operation.name?.value === name);
    if (!named) throw new GraphqlDocumentRefused("operationName", `the document has no operation named ${name}`);
    return named;
  }
  const [only, ...others] = operations;
  if (!only) throw new GraphqlDocumentRefused("document", "the document has no operation");
  if (others.length > 0)
    throw new GraphqlDocumentRefused(
      "operationName",
      `the document holds ${operations.length} operations: say which one the tool runs in operationName`,
    );
  return only;
}

/** Each error with its line and column, the first few. */
function located(errors: readonly GraphQLError[]): string {
  const shown = errors.slice(0, 5).map((error) => {
    const [at] = error.locations ?? [];
    return `${error.message.replace(/^Syntax Error: /, "")}${describeLocation(at && { line: at.line, column: at.column })}`;
  });
  return `${shown.join("; ")}${errors.length > shown.length ? ` (and ${errors.length - shown.length} more)` : ""}`;
}

/** The variables as the tool's arguments: what input-schema.ts makes of a field's arguments. */
function variablesSchema(schema: GraphQLSchema, operation: OperationDefinitionNode): JsonObject {
  const variables = (operation.variableDefinitions ?? []).map((definition) => {
    const type = typeFromAST(schema, definition.type) as GraphQLInputType; // validate checked it names an input type
    const fallback = definition.defaultValue ? valueFromAST(definition.defaultValue, type) : undefined;
    return { name: definition.variable.name.value, type, description: undefined, defaultValue: fallback };
  });
  const defs: InputDefs = new Map();
  const input = objectSchema(variables as unknown as GraphQLArgument[], defs);
  if (defs.size > 0) input.$defs = Object.fromEntries(defs);
  return input;
}

/** The data a selection set gives: one property per response key (alias or name), fragments merged in. */
function selectedProperties(
  schema: GraphQLSchema,
  fragments: Map<string, FragmentDefinitionNode>,
  selectionSet: SelectionSetNode,
  parent: GraphQLCompositeType,
  properties: JsonObject = {},
): JsonObject {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      if (selection.name.value === "__typename") {
        properties[key] = { type: "string" };
        continue;
      }
      const field =
        isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
      if (!field) continue; // never: validate checked every field exists
      const value = valueSchema(schema, fragments, field.type, selection.selectionSet);
      const described = describe(value, field.description ?? undefined, field.deprecationReason ?? undefined);
      properties[key] = mergeObjects(properties[key], described);
      continue;
    }
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
    if (!fragment) continue; // never: validate checked every spread has its fragment
    const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : parent;
    if (condition && isCompositeType(condition))
      selectedProperties(schema, fragments, fragment.selectionSet, condition, properties);
  }
  return properties;
}

/** A field's value: its type's schema, `null` allowed unless non-null, its selection's properties for an object. */
function valueSchema(
  schema: GraphQLSchema,
  fragments: Map<string, FragmentDefinitionNode>,
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  nullableValue = true,
): JsonObject {
  if (isNonNullType(type)) return valueSchema(schema, fragments, type.ofType, selectionSet, false);
  let value: JsonObject;
  if (isListType(type)) value = { type: "array", items: valueSchema(schema, fragments, type.ofType, selectionSet) };
  else if (isEnumType(type)) value = { enum: type.getValues().map((entry) => entry.name) };
  else if (isCompositeType(type)) {
    const properties = selectionSet ? selectedProperties(schema, fragments, selectionSet, type) : {};
    value = { type: "object", properties, ...(type.description ? { description: type.description } : {}) };
  } else {
    const json = builtInScalarType(type);
    value = json ? { type: json } : { description: `${type.name}: a custom GraphQL scalar` };
  }
  return nullableValue ? nullable(value) : value;
}

/** The same response key selected twice (`pet { name } pet { age }`): one object with both selections. */
function mergeObjects(before: JsonObject[string] | undefined, after: JsonObject): JsonObject {
  if (!isObject(before)) return after;
  const merged: JsonObject = { ...before, ...after };
  if (isObject(before.properties) && isObject(after.properties)) {
    const properties: JsonObject = { ...before.properties };
    for (const [key, value] of Object.entries(after.properties))
      properties[key] = isObject(value) ? mergeObjects(properties[key], value) : value;
    merged.properties = properties;
  }
  if (isObject(before.items) && isObject(after.items)) merged.items = mergeObjects(before.items, after.items);
  return merged;
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
