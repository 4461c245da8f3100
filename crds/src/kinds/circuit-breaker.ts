/**
 * A ConfigurationPlan's backend circuit breaker: its settings, on by default. The gateway
 * enforces them per plan and backend origin on each replica (gateway/src/circuit-breaker.ts).
 */
import { z } from "zod";

export const circuitBreaker = z
  .object({
    enabled: z
      .boolean()
      .default(true)
      .describe("Whether the gateway stops calling a backend it cannot reach; on by default."),
    consecutiveFailures: z
      .number()
      .int()
      .min(1)
      .max(1_000)
      .default(5)
      .describe(
        "Consecutive calls that fail to reach the backend (connection refused, reset or timed out; an HTTP answer " +
          "of any status is a success) after which the breaker opens.",
      ),
    coolDownSeconds: z
      .number()
      .int()
      .min(1)
      .max(3_600)
      .default(30)
      .describe(
        "Seconds an open breaker answers calls at once with an error, without calling the backend; then one trial " +
          "call goes through: success closes the breaker, failure opens it for another cool-down.",
      ),
  })
  // Absent (plans stored before the breaker existed, or written without it): all defaults.
  .prefault({})
  .describe(
    "Backend circuit breaker, per plan and backend origin on each gateway replica: while open, tools/call answers " +
      "an error result (isError) and resources/read a JSON-RPC error, each saying when to retry.",
  );

export type CircuitBreakerSettings = z.output<typeof circuitBreaker>;
