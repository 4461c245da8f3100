/**
 * The write-time checks of a plan's toolOutputFilters that need its Service: each names a tool
 * the plan has (its included operations and the Service's custom tools, named as gateways name
 * them before overrides, @atrium/contract/tool-names); a filter whose patches make the tool's
 * outputSchema impossible to derive is accepted with a warning, since the tool then lists none.
 * The filters' own shape (pointer syntax, a patch's members, the caps) is the schema's
 * (@atrium/crds).
 */
import type { NormalizedOperation, PlanSettings } from "@atrium/contract";
import { deriveOutputSchema } from "@atrium/contract/output-filter";
import { and, eq } from "drizzle-orm";
import { services } from "../db/schema.ts";
import { errors, type FieldError } from "../errors.ts";
import type { Tx } from "../stream/changes.ts";
import { answerSchemaOf, planToolsOf } from "./plan-tools.ts";

type Plan = Pick<PlanSettings, "toolOutputFilters" | "includedOperations" | "excludedOperations"> & {
  serviceId: string;
};

/** The plan's tools by name, each with the schema of its JSON answer (`{}` when it has none). */
async function planTools(tx: Tx, organizationId: string, plan: Plan): Promise<Map<string, Record<string, unknown>>> {
  const [service] = await tx
    .select({ operations: services.operations })
    .from(services)
    .where(and(eq(services.organizationId, organizationId), eq(services.id, plan.serviceId)));
  const operations = (service?.operations ?? []) as NormalizedOperation[];
  const named = await planToolsOf(tx, organizationId, { id: plan.serviceId, operations }, plan);
  const tools = new Map<string, Record<string, unknown>>();
  // A GraphQL custom tool lists the schema of its answer's data (given or derived at write);
  // a request template's answer has none.
  for (const { name, tool } of named.customTools) tools.set(name, tool.graphql?.outputSchema ?? {});
  for (const { name, operation } of named.operations) {
    tools.set(name, answerSchemaOf(operation) ?? {});
  }
  return tools;
}

/**
 * Refuses (422, located at `body.toolOutputFilters.<tool>`) filters naming a tool the plan does
 * not have; returns the warnings of the others.
 */
export async function checkOutputFilters(tx: Tx, organizationId: string, plan: Plan): Promise<string[]> {
  const filters = plan.toolOutputFilters;
  if (!filters || Object.keys(filters).length === 0) return [];
  const tools = await planTools(tx, organizationId, plan);
  const problems: FieldError[] = [];
  const warnings: string[] = [];
  for (const [name, filter] of Object.entries(filters)) {
    const schema = tools.get(name);
    if (!schema) {
      const known = [...tools.keys()];
      problems.push({
        field: `body.toolOutputFilters.${name}`,
        message: `no tool is named ${name} on this plan; its tools are ${known.slice(0, 50).join(", ") || "none"}${known.length > 50 ? ", …" : ""}`,
      });
      continue;
    }
    if (schema.type !== "object") continue;
    const derived = deriveOutputSchema(schema, filter);
    if ("problem" in derived) warnings.push(`toolOutputFilters.${name}: ${derived.problem}`);
  }
  if (problems.length > 0)
    throw errors.unprocessable(
      "INVALID_REFERENCE",
      problems.map((p) => `${p.field}: ${p.message}`).join("; "),
      problems,
    );
  return warnings;
}
