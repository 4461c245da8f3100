/**
 * A ConfigurationPlan's GraphQL settings, for a plan on a Service of kind graphql (the control
 * plane refuses them on any other): how deep the generated selection sets go. The control plane
 * rebuilds each tool's document and output schema at that depth when it compiles the plan's
 * Expositions (control-plane/src/graphql/plan-depth.ts): gateways receive them ready.
 */
import { z } from "zod";

export const minSelectionDepth = 1;
export const maxSelectionDepth = 5;

export const graphqlPlanSettings = z
  .object({
    selectionDepth: z
      .number()
      .int()
      .min(minSelectionDepth)
      .max(maxSelectionDepth)
      .default(2)
      .describe(
        "Object levels of a tool's generated selection set whose scalar and enum fields are selected: 1 is the " +
          "root field's own type, 2 (the default) also the objects in it, up to 5. A type already on the path is " +
          "not entered again (cycles cut); fields with required arguments are never selected.",
      ),
  })
  .describe("Only on a plan whose Service is of kind graphql: how the tools' GraphQL documents are generated.");
