/**
 * `GET /expositions/:id/tools`: each tool of an Exposition as clients see it — named, described
 * and annotated after the plan's toolOverrides, with its effective inputSchema (built and its fixed
 * arguments dropped by @atrium/contract/tool-schema, the code gateways build it with), its output
 * filter, the outputSchema derived through that filter (@atrium/contract/output-filter, as gateways
 * derive it) and its result budget. Tools are named as gateways name them (plan-tools.ts).
 */
import type { NormalizedOperation, PlanSettings } from "@atrium/contract";
import { deriveOutputSchema } from "@atrium/contract/output-filter";
import type { ExpositionToolView } from "@atrium/contract/rest";
import { describeOperation } from "@atrium/contract/tool-names";
import {
  customToolInputSchema,
  customToolOutputSchema,
  type ObjectSchema,
  operationInputSchema,
  operationOutputSchema,
  withoutArguments,
} from "@atrium/contract/tool-schema";
import { and, eq } from "drizzle-orm";
import { configurationPlans, expositions, services } from "../db/schema.ts";
import type { Tx } from "../stream/changes.ts";
import { planToolsOf } from "./plan-tools.ts";

/** The Exposition's tools, or undefined when the organization has no such Exposition. */
export async function expositionTools(
  tx: Tx,
  organizationId: string,
  id: string,
): Promise<ExpositionToolView[] | undefined> {
  const [row] = await tx
    .select({
      settings: configurationPlans.settings,
      serviceId: configurationPlans.serviceId,
      operations: services.operations,
    })
    .from(expositions)
    .innerJoin(configurationPlans, eq(configurationPlans.id, expositions.configurationPlanId))
    .innerJoin(services, eq(services.id, configurationPlans.serviceId))
    .where(and(eq(expositions.organizationId, organizationId), eq(expositions.id, id)));
  if (!row) return undefined;
  const plan = row.settings as PlanSettings;
  const operations = row.operations as NormalizedOperation[];
  const named = await planToolsOf(tx, organizationId, { id: row.serviceId, operations }, plan);
  const tools: ExpositionToolView[] = [];
  const view = (
    from: string,
    kind: "operation" | "custom",
    own: { title?: string; description?: string },
    schemas: () => { input: ObjectSchema; output: ObjectSchema | undefined },
  ) => {
    const override = plan.toolOverrides?.[from];
    const filter = plan.toolOutputFilters?.[from];
    let built: ReturnType<typeof schemas> | undefined;
    try {
      built = schemas();
    } catch {
      built = undefined; // a gateway leaves such a tool out, with a warning
    }
    const fixed = Object.keys(override?.fixedArguments ?? {});
    const inputSchema = built && (fixed.length > 0 ? withoutArguments(built.input, fixed) : built.input);
    const schema = built?.output;
    let outputSchema: Record<string, unknown> | undefined = schema;
    let outputSchemaProblem: string | undefined;
    if (schema && filter) {
      const derived = deriveOutputSchema(schema, filter);
      if ("schema" in derived) outputSchema = derived.schema;
      else {
        outputSchema = undefined;
        outputSchemaProblem = derived.problem;
      }
    }
    tools.push({
      name: override?.name ?? from,
      from,
      kind,
      title: override?.title ?? own.title,
      description: override?.description ?? own.description,
      annotations: override?.annotations,
      inputSchema,
      fixedArguments: override?.fixedArguments,
      outputSchema,
      outputSchemaProblem,
      filter,
      maxResultBytes: override?.maxResultBytes ?? plan.maxResultBytes,
    });
  };
  for (const { name, tool } of named.customTools)
    view(name, "custom", tool as { description?: string }, () => ({
      input: customToolInputSchema(tool).inputSchema,
      output: customToolOutputSchema(tool),
    }));
  for (const { name, operation } of named.operations)
    view(name, "operation", { title: operation.summary, description: describeOperation(operation) }, () => ({
      input: operationInputSchema(operation),
      output: operationOutputSchema(operation),
    }));
  return tools;
}
