/**
 * The state of each served Exposition's backend circuit breaker, rendered at scrape time: one
 * series per exposition and state (a closed set: closed, open, half_open), 1 for the current one.
 * Expositions of the same plan share its breaker, so they show the same state. Breakers of plans
 * no longer served are dropped here.
 */
import { CIRCUIT_STATES, type CircuitBreakers } from "./circuit-breaker.ts";
import { escapeLabel } from "./metrics.ts";
import type { ExpositionRegistry } from "./registry.ts";

export function circuitMetrics(breakers: CircuitBreakers, registry: ExpositionRegistry): (out: string[]) => void {
  return (out) => {
    out.push(
      "# HELP atrium_backend_circuit_state State of the exposition's backend circuit breaker (1 for the current state)",
      "# TYPE atrium_backend_circuit_state gauge",
    );
    const served = registry.served();
    for (const { exposition, backend } of served) {
      const state = exposition.plan.circuitBreaker.enabled
        ? breakers.stateOf(exposition.plan.id, backend.origin)
        : "closed";
      for (const label of CIRCUIT_STATES) {
        out.push(
          `atrium_backend_circuit_state{exposition="${escapeLabel(exposition.id)}",state="${label}"} ${label === state ? 1 : 0}`,
        );
      }
    }
    breakers.keepOnly(
      served.map(({ exposition, backend }) => ({ planId: exposition.plan.id, origin: backend.origin })),
    );
  };
}
