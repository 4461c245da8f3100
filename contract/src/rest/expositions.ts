/**
 * Expositions: a plan published on a gateway group, shown with the live gateways serving it and
 * the problems gateways reported.
 */
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
