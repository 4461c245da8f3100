/**
 * Exposition: a ConfigurationPlan published on a GatewayGroup, served at /mcp/<org>/<name>.
 */
import { z } from "zod";
import { objectRef, reconcileStatus } from "../common.ts";
import { defineKind } from "../kind.ts";

export const expositionSpec = z
  .object({
    configurationPlanRef: objectRef("ConfigurationPlan"),
    gatewayGroupRef: objectRef("GatewayGroup"),
  })
  .describe("Publishes a ConfigurationPlan on the gateways of a GatewayGroup.");

export const Exposition = defineKind({
  kind: "Exposition",
  plural: "expositions",
  shortNames: ["expo"],
  description: "A ConfigurationPlan published as an MCP endpoint on the gateways of a GatewayGroup.",
  spec: expositionSpec,
  status: reconcileStatus,
});
