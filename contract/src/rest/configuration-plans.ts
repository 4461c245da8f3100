/**
 * Configuration Plans: a Service bound to a backend with the endpoint's settings (the stream's
 * plan settings), checked with the crds rulebook. The API key is shown only when made.
 */
import { configurationPlanRules, contractUrl, withRules } from "@atrium/crds";
import { z } from "zod";
import { planSettings } from "../stream.ts";
import { recordName, timestamps } from "./records.ts";

export const planBody = withRules(
  planSettings.extend({
    name: recordName,
    serviceId: z.uuid(),
    backendEndpoint: contractUrl,
    apiKey: z
      .boolean()
      .default(false)
      .describe("Protect the endpoint with a generated API key (x-atrium-key); not with oauth."),
  }),
  configurationPlanRules,
);
export type PlanBody = z.input<typeof planBody>;
export const planView = planSettings.extend({
  id: z.string(),
  name: z.string(),
  serviceId: z.string(),
  backendEndpoint: z.string(),
  hasApiKey: z.boolean(),
  ...timestamps,
});
export type PlanView = z.output<typeof planView>;
/** The answers to create, replace and renew: with the new key when one was made. */
export const planWithKey = planView.extend({
  apiKey: z.string().optional().describe("The new API key, shown only now."),
  warnings: z
    .array(z.string())
    .optional()
    .describe(
      "What the written plan gets that was perhaps not meant, without being refused: a tool whose outputSchema " +
        "cannot be derived through its output filter lists none. Absent when there is nothing to say.",
    ),
});
export type PlanWithKey = z.output<typeof planWithKey>;
