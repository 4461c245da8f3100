/**
 * Importing a GraphQL schema (SDL or an introspection result) into normalized operations: every
 * Query field a read-only tool, every Mutation field a tool that is not read-only (subscriptions
 * are not published). Each operation carries its call recipe (`graphql`: the document with one
 * variable per argument and the generated selection set); method and path say what GraphQL over
 * HTTP does, `POST /` on the plan's endpoint. The arguments are the request body's schema; the
 * selected data is the 200 answer's. The output types and each operation's document head are
 * stored with the Service (`graphql`), so a plan's own selection depth is rebuilt from them
 * without the schema (plan-depth.ts); the schema itself is stored as SDL, which custom tools' own
 * documents are validated against (custom-tools.ts). What is not published is said in a warning each.
 * Runs in the import worker, like the OpenAPI import.
 */
import type { GraphqlCall, NormalizedOperation } from "@atrium/contract";
import type { ImportWarning } from "@atrium/contract/rest";
import {
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  isNonNullType,
  parse,
  printSchema,
  validate,
} from "graphql";
import { checkContract } from "../openapi/contract-check.ts";
import type { ImportedDocument } from "../openapi/imported-document.ts";
import { maxImportWarnings, maxSchemaNodes } from "../openapi/limits.ts";
import type { JsonObject } from "../openapi/plain-json.ts";
import { noRootFields, toolsTooLarge, unqueryableField } from "./errors.ts";
import { type InputDefs, isRequired, objectSchema } from "./input-schema.ts";
import { type GraphqlSelectionSource, outputTypes } from "./output-types.ts";
import { parseGraphqlSchema } from "./parse-schema.ts";
import {
  defaultSelectionDepth,
  documentOf,
  type FieldBudget,
  maxSelectedFields,
  SelectionTooLarge,
  selectField,
} from "./selection.ts";
import { notExposedWarnings, selectionTooLargeWarning } from "./warnings.ts";

type Walk = {
  schema: GraphQLSchema;
  types: GraphqlSelectionSource["types"];
  roots: GraphqlSelectionSource["roots"];
  defs: InputDefs;
  budget: FieldBudget;
  warnings: ImportWarning[];
};

/** The import proper, on the submitted text. */
export function importGraphqlText(rawText: string, introspected = false): ImportedDocument {
  const text = rawText.startsWith("\uFEFF") ? rawText.slice(1) : rawText;
  const { schema, warnings } = parseGraphqlSchema(text, introspected);
  const rootFields = [schema.getQueryType(), schema.getMutationType()].flatMap((root) =>
    Object.values(root?.getFields() ?? {}),
  );
  const walk: Walk = {
    schema,
    types: outputTypes(rootFields),
    roots: {},
    defs: new Map(),
    budget: { left: maxSelectedFields },
    warnings: [...warnings, ...notExposedWarnings(schema)],
  };
  const queries = rootOperations(walk, schema.getQueryType(), "query", new Set());
  const taken = new Set(queries.map((operation) => operation.operationId));
  const mutations = rootOperations(walk, schema.getMutationType(), "mutation", taken);
  const operations = [...queries, ...mutations];
  if (operations.length === 0) throw noRootFields();
  // Each operation carries the input objects it uses: shared in memory, copied once stored.
  if (!withinNodes(operations, maxSchemaNodes)) throw toolsTooLarge(maxSchemaNodes);
  const document: ImportedDocument = {
    kind: "graphql",
    title: schema.description ?? "GraphQL API",
    version: "",
    servers: [],
    operations,
    warnings: walk.warnings.slice(0, maxImportWarnings),
    graphql: { types: walk.types, roots: walk.roots },
    graphqlSchema: printSchema(schema),
  };
  return checkContract(document, [], () => ({}));
}

function rootOperations(
  walk: Walk,
  root: GraphQLObjectType | null | undefined,
  operationType: GraphqlCall["operationType"],
  taken: Set<string>,
): NormalizedOperation[] {
  const operations: NormalizedOperation[] = [];
  for (const field of Object.values(root?.getFields() ?? {})) {
    const operation = fieldOperation(walk, field, operationType, uniqueId(field.name, operationType, taken));
    if (operation) operations.push(operation);
  }
  return operations;
}

/** A mutation named like a query field gets the operation type as a prefix: `mutation_product`. */
function uniqueId(name: string, operationType: string, taken: Set<string>): string {
  let id = name;
  for (let n = 2; taken.has(id); n++) id = `${operationType}_${name}${n === 2 ? "" : `_${n}`}`;
  taken.add(id);
  return id;
}

function fieldOperation(
  walk: Walk,
  field: GraphQLField<unknown, unknown>,
  operationType: GraphqlCall["operationType"],
  operationId: string,
): NormalizedOperation | undefined {
  const type = String(field.type);
  let selected: ReturnType<typeof selectField>;
  const left = walk.budget.left;
  try {
    selected = selectField(walk.types, type, defaultSelectionDepth, walk.budget);
  } catch (error) {
    if (!(error instanceof SelectionTooLarge)) throw error;
    walk.budget.left = left; // the fields it took are not selected: the next root field may have them
    walk.warnings.push(selectionTooLargeWarning(operationType, field.name, maxSelectedFields));
    return undefined;
  }
  if (!selected) return undefined; // never for a root field: an object with nothing selectable asks for __typename
  const head = callHead(field, operationType, operationId);
  const call: GraphqlCall = {
    operationType,
    fieldName: field.name,
    operationName: operationId,
    document: documentOf(head, selected.selection),
  };
  const problems = validate(walk.schema, parse(call.document));
  if (problems.length > 0) throw unqueryableField(`${operationType} field '${field.name}'`, problems);
  walk.roots[operationId] = { type, head };

  const { defs } = walk;
  const input = objectSchema(field.args, defs);
  const used = referencedDefs(input, defs);
  if (used.size > 0) input.$defs = Object.fromEntries(used);
  const output: JsonObject = { type: "object", properties: { [field.name]: selected.schema } };
  const deprecated = field.deprecationReason != null;
  return {
    operationId,
    method: "POST",
    path: "/",
    ...(field.description ? { summary: field.description.split("\n")[0] } : {}),
    ...(field.description || deprecated
      ? {
          description: [field.description, deprecated ? `Deprecated: ${field.deprecationReason}` : undefined]
            .filter(Boolean)
            .join("\n\n"),
        }
      : {}),
    deprecated,
    tags: [operationType === "query" ? "Query" : "Mutation"],
    parameters: [],
    requestBody: {
      required: field.args.some(isRequired),
      contentType: "application/json",
      schema: input,
    },
    responses: [{ status: "200", contentType: "application/json", schema: output }],
    extensions: {
      "x-mcp-annotations":
        operationType === "query" ? { readOnlyHint: true, destructiveHint: false } : { readOnlyHint: false },
    },
    graphql: call,
  };
}

/**
 * `query products($filter: ProductFilter, $first: Int) { products(filter: $filter, first: $first)`,
 * which the selection and ` }` end. An argument with a default gets a nullable variable, so
 * leaving it out lets the server's default apply.
 */
function callHead(field: GraphQLField<unknown, unknown>, operationType: string, operationName: string): string {
  const variables = field.args.map((arg) => {
    const type = arg.defaultValue !== undefined && isNonNullType(arg.type) ? arg.type.ofType : arg.type;
    return `$${arg.name}: ${String(type)}`;
  });
  const argumentsList = field.args.map((arg) => `${arg.name}: $${arg.name}`);
  const declared = variables.length > 0 ? `(${variables.join(", ")})` : "";
  const passed = argumentsList.length > 0 ? `(${argumentsList.join(", ")})` : "";
  return `${operationType} ${operationName}${declared} { ${field.name}${passed}`;
}

/** The input objects one schema refers to, directly or through each other. */
function referencedDefs(schema: JsonObject, defs: InputDefs): Map<string, JsonObject> {
  const used = new Map<string, JsonObject>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === "object") {
      for (const [key, child] of Object.entries(value)) {
        if (key === "$ref" && typeof child === "string") {
          const name = child.slice("#/$defs/".length);
          const def = defs.get(name);
          if (def && !used.has(name)) {
            used.set(name, def);
            visit(def);
          }
        } else visit(child);
      }
    }
  };
  visit(schema);
  return used;
}

/** Whether the operations, as stored, have at most `max` JSON nodes; stops counting past it. */
function withinNodes(operations: NormalizedOperation[], max: number): boolean {
  let count = 0;
  const stack: unknown[] = [...operations];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (++count > max) return false;
    if (next !== null && typeof next === "object") stack.push(...Object.values(next));
  }
  return true;
}
