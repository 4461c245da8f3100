/**
 * A plan's own `graphql.selectionDepth`: each GraphQL tool's document and output schema rebuilt
 * at that depth from the output types stored with the Service at import (output-types.ts), by
 * the same walk the import used (selection.ts).
 *
 * Why here, in the control plane, when it compiles an Exposition: the gateways then receive
 * finished operations, as for every other plan setting that shapes a tool, and need neither the
 * schema nor a second selection generator; the stream contract does not change. The walk costs
 * time in proportion to the fields it selects, bounded by `maxPlanSelectedFields`, and its
 * results are kept per Service version and depth, so a snapshot does not redo it.
 */
import type { NormalizedOperation } from "@atrium/contract";
import type { ImportedDocument } from "../openapi/imported-document.ts";
import type { JsonObject } from "../openapi/plain-json.ts";
import { defaultSelectionDepth, documentOf, SelectionTooLarge, selectField } from "./selection.ts";

/**
 * The most fields a plan's tools may select together at its depth. Smaller than the import's
 * budget (selection.ts): the import runs in a worker, this on the control plane's event loop
 * (about 0.1 s per 25,000 fields, once per Service version and depth).
 */
export const maxPlanSelectedFields = 50_000;

/** Why the operations cannot be given at the plan's depth; the message says what to do. */
export class SelectionDepthRefused extends Error {
  readonly code: "GRAPHQL_SELECTION_TOO_LARGE" | "GRAPHQL_SERVICE_IMPORT_OUTDATED";

  constructor(code: SelectionDepthRefused["code"], message: string) {
    super(message);
    this.code = code;
  }
}

type Rebuilt = { operation: NormalizedOperation; fields: number };
type Service = { id: string; updatedAt: Date; document: Omit<ImportedDocument, "operations"> };

const cached = new Map<string, Map<string, Rebuilt>>();
const maxCached = 32;

/**
 * The operations (already filtered by the plan) at `depth`; as they are at the import's depth.
 * Throws `SelectionDepthRefused` when their selections together pass the fields budget, or the
 * Service was imported before the output types were stored.
 */
export function operationsAtDepth(
  service: Service,
  operations: NormalizedOperation[],
  depth: number | undefined,
): NormalizedOperation[] {
  if (depth === undefined || depth === defaultSelectionDepth || !operations.some((op) => op.graphql)) return operations;
  const source = service.document.graphql;
  if (!source)
    throw new SelectionDepthRefused(
      "GRAPHQL_SERVICE_IMPORT_OUTDATED",
      `Service '${service.id}' was imported before selection depths could be chosen: import its schema again to use graphql.selectionDepth ${depth}`,
    );
  const key = `${service.id}@${service.updatedAt.getTime()}#${depth}`;
  let rebuilt = cached.get(key);
  if (!rebuilt) {
    rebuilt = new Map();
    if (cached.size >= maxCached) cached.delete(cached.keys().next().value as string);
    cached.set(key, rebuilt);
  }
  let fields = 0;
  const result = operations.map((operation) => {
    const root = Object.hasOwn(source.roots, operation.operationId) ? source.roots[operation.operationId] : undefined;
    if (!operation.graphql || !root) return operation;
    let entry = rebuilt.get(operation.operationId);
    if (!entry) {
      entry = rebuild(operation, source, root, depth);
      rebuilt.set(operation.operationId, entry);
    }
    fields += entry.fields;
    if (fields > maxPlanSelectedFields) throw tooLarge(depth);
    return entry.operation;
  });
  return result;
}

function rebuild(
  operation: NormalizedOperation,
  source: NonNullable<ImportedDocument["graphql"]>,
  root: { type: string; head: string },
  depth: number,
): Rebuilt {
  const budget = { left: maxPlanSelectedFields };
  let selected: ReturnType<typeof selectField>;
  try {
    selected = selectField(source.types, root.type, depth, budget);
  } catch (error) {
    if (error instanceof SelectionTooLarge) throw tooLarge(depth);
    throw error;
  }
  const call = operation.graphql;
  if (!selected || !call) return { operation, fields: 0 }; // never: the import selected it
  const output: JsonObject = { type: "object", properties: { [call.fieldName]: selected.schema } };
  const [answer, ...others] = operation.responses;
  return {
    operation: {
      ...operation,
      graphql: { ...call, document: documentOf(root.head, selected.selection) },
      responses: [{ ...answer, status: answer?.status ?? "200", schema: output }, ...others],
    },
    fields: maxPlanSelectedFields - budget.left,
  };
}

function tooLarge(depth: number): SelectionDepthRefused {
  return new SelectionDepthRefused(
    "GRAPHQL_SELECTION_TOO_LARGE",
    `at graphql.selectionDepth ${depth} the tools' selections come to more than ${maxPlanSelectedFields} fields: choose a smaller depth, or publish fewer operations (includedOperations, excludedOperations)`,
  );
}
