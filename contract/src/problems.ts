/**
 * Expositions a gateway received but does not serve, and why: the gateway reports the whole set,
 * the control plane shows it on the Exposition.
 */
import { z } from "zod";
import { instanceId } from "./registration.ts";

export const PROBLEM_MESSAGE_MAX = 500;
/** An Exposition a gateway received but does not serve, and why. */
export const expositionProblem = z.object({
  expositionId: z.uuid({ message: "must be an Exposition id (a UUID)" }),
  message: z.string().min(1).max(PROBLEM_MESSAGE_MAX),
});
export type ExpositionProblem = z.output<typeof expositionProblem>;
/** PUT /gateways/:id/problems: the whole current set, replacing what the gateway reported before. */
export const gatewayProblemsReport = z.object({
  instanceId,
  problems: z.array(expositionProblem).max(10_000),
});
