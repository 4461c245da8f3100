/**
 * The state of each served Exposition's backend circuit breaker, read at scrape time: one
 * series per exposition and state (a closed set: closed, open, half_open), 1 for the current one.
 * Expositions of the same plan share its breaker, so they show the same state. Breakers of plans
 * no longer served are dropped here.
 */
import { CIRCUIT_STATES, type CircuitState } from "./circuit-breaker.ts";
import { CollectedFamily } from "./metric-families.ts";
import type { ServedExposition } from "./registry.ts";

/** What the family reads: the breakers' states, and the Expositions served. */
export interface BreakerSource {
  stateOf(planId: string, origin: string): CircuitState;
  keepOnly(keys: { planId: string; origin: string }[]): void;
}
export interface ServedSource {
  served(): Pick<ServedExposition, "exposition" | "backend">[];
}

export function circuitMetrics(breakers: BreakerSource, registry: ServedSource): CollectedFamily {
  return new CollectedFamily(
    {
      name: "atrium_backend_circuit_state",
      type: "gauge",
      help: "State of the exposition's backend circuit breaker (1 for the current state)",
      labelNames: ["exposition", "state"],
    },
    () => {
      const served = registry.served();
      const samples: [string[], number][] = [];
      for (const { exposition, backend } of served) {
        const state = exposition.plan.circuitBreaker.enabled
          ? breakers.stateOf(exposition.plan.id, backend.origin)
          : "closed";
        for (const label of CIRCUIT_STATES) samples.push([[exposition.id, label], label === state ? 1 : 0]);
      }
      breakers.keepOnly(
        served.map(({ exposition, backend }) => ({ planId: exposition.plan.id, origin: backend.origin })),
      );
      return samples;
    },
  );
}
