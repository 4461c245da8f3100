/**
 * Expositions: a plan published on a gateway group, shown with the live gateways serving it and
 * the problems gateways reported.
 */
import { toolOutputFilter } from "@atrium/crds";
import { z } from "zod";
import { gatewayGroupId, recordName, timestamps } from "./records.ts";

export const expositionBody = z.object({
  name: recordName.describe("Name in the MCP path /mcp/<organization>/<name>."),
  configurationPlanId: z.uuid(),
  gatewayGroupId,
});
export type ExpositionBody = z.input<typeof expositionBody>;
/** A gateway's problem with an Exposition, as the Exposition's view shows it. */
export const expositionProblemView = z.object({
  gatewayId: z.string(),
  message: z.string(),
  at: z.string().describe("When the gateway first reported this message."),
});
export type ExpositionProblemView = z.output<typeof expositionProblemView>;
export const expositionView = expositionBody.extend({
  id: z.string(),
  gatewayGroup: z.object({ id: z.number(), name: z.string() }),
  endpoints: z.array(z.string()).describe("FQDNs of the live gateways serving it."),
  problems: z
    .array(expositionProblemView)
    .describe("Gateways that received it but do not serve it, and why (empty when every gateway serves it)."),
  ...timestamps,
});
export type ExpositionView = z.output<typeof expositionView>;

/**
 * One tool of an Exposition as clients see it: its plan's toolOverrides, toolOutputFilters and
 * result budget applied to the Service's tool. Its schemas are built by the code gateways build
 * them with (@atrium/contract/tool-schema): `inputSchema` is the one `tools/list` advertises (the
 * fixed arguments dropped); a gateway leaves out an `outputSchema` its ajv cannot compile.
 */
export const expositionToolView = z.object({
  name: z.string().describe("The name clients see (after toolOverrides)."),
  from: z.string().describe("The tool's name on its Service (before toolOverrides)."),
  kind: z.enum(["operation", "custom"]),
  title: z.string().optional(),
  description: z.string().optional(),
  annotations: z.record(z.string(), z.unknown()).optional(),
  inputSchema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "The effective input schema clients see: the tool's own (an operation's parameters and body, a custom tool's " +
        "inputSchema) without the fixed arguments; absent when it cannot be built (gateways leave that tool out).",
    ),
  fixedArguments: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Arguments the plan fixes: removed from the input schema, always sent with this value."),
  outputSchema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "The outputSchema clients see: the tool's own (an operation's JSON answer's, a GraphQL custom tool's selection's), " +
        "derived through the filter; absent when the tool has none or it cannot be derived.",
    ),
  outputSchemaProblem: z.string().optional().describe("Why no outputSchema can be derived through the filter."),
  filter: toolOutputFilter.optional(),
  maxResultBytes: z.number().int().optional().describe("The result budget: the tool's override, else the plan's."),
});
export type ExpositionToolView = z.output<typeof expositionToolView>;
export const expositionToolsView = z.object({ items: z.array(expositionToolView) });
