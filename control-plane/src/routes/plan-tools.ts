/**
 * A plan's tools as gateways name them before its overrides (@atrium/contract/tool-names): the
 * Service's custom tools, then the operations the plan includes, in document order. The
 * write-time checks of toolOverrides and toolOutputFilters name tools this way.
 */
import type { NormalizedOperation, PlanSettings } from "@atrium/contract";
import { defaultToolNames } from "@atrium/contract/tool-names";
import { and, eq } from "drizzle-orm";
import { serviceArtifacts } from "../db/schema.ts";
import type { Tx } from "../stream/changes.ts";

/** A CustomTools entry as stored, with what these checks read of it. */
export type StoredCustomTool = {
  name: string;
  inputSchema?: Record<string, unknown>;
  graphql?: { outputSchema?: Record<string, unknown> };
};

export type PlanTools = {
  customTools: { name: string; tool: StoredCustomTool }[];
  operations: { name: string; operation: NormalizedOperation }[];
};

export async function planToolsOf(
  tx: Tx,
  organizationId: string,
  service: { id: string; operations: NormalizedOperation[] },
  plan: Pick<PlanSettings, "includedOperations" | "excludedOperations">,
): Promise<PlanTools> {
  const artifacts = await tx
    .select({ spec: serviceArtifacts.spec })
    .from(serviceArtifacts)
    .where(
      and(
        eq(serviceArtifacts.organizationId, organizationId),
        eq(serviceArtifacts.serviceId, service.id),
        eq(serviceArtifacts.kind, "CustomTools"),
      ),
    );
  const customTools = artifacts.flatMap(({ spec }) => (spec as { tools?: StoredCustomTool[] }).tools ?? []);
  const included = plan.includedOperations ? new Set(plan.includedOperations) : undefined;
  const excluded = new Set(plan.excludedOperations ?? []);
  const operations = service.operations.filter(
    (op) => (!included || included.has(op.operationId)) && !excluded.has(op.operationId),
  );
  const names = defaultToolNames(
    customTools.map((tool) => tool.name),
    operations.map((op) => op.operationId),
  );
  return {
    customTools: customTools.map((tool, index) => ({ name: names.customTools[index] ?? tool.name, tool })),
    operations: operations.map((operation, index) => ({
      name: names.operations[index] ?? operation.operationId,
      operation,
    })),
  };
}

/** The schema of an operation's JSON answer as gateways publish it: the first 2xx answer's, when it is an object's. */
export function answerSchemaOf(operation: NormalizedOperation): Record<string, unknown> | undefined {
  const schema = operation.responses.find((response) => response.status.startsWith("2"))?.schema;
  return schema?.type === "object" ? schema : undefined;
}
