/**
 * What the backend circuit breaker costs per call. Two measures:
 *
 * - its own work, in this process: the breaker of a plan and origin looked up, the call
 *   admitted, its success recorded (what Backends.call adds to a call), timed over a million
 *   calls;
 * - on a gateway: one gateway process serves the pets Exposition twice, under a plan with the
 *   breaker (the default) and one with `circuitBreaker.enabled: false`, loaded in turn in rotated
 *   rounds (one-gateway-cost.ts); CPU µs per call of that process, and req/s.
 *
 * The runner is plan-setting-cost.ts (the backend and control plane on the harness core, the
 * gateway on the contestant core, as in run.ts).
 *
 *   node bench/gateway/breaker-cost.ts [--duration 10] [--rounds 5] [--connections 32] [--warmup 2] [--busy] [--quick]
 *
 * --busy: no waiting for a quiet machine, no repeated runs (a shared machine that is never quiet);
 *   the rounds still alternate the two plans, and the report says how busy the machine was.
 * --quick (CI smoke): one round of 2 s, and a tenth of the in-process calls; implies --busy.
 */
import { circuitBreaker } from "@atrium/crds";
import { CircuitBreakers } from "@atrium/gateway";
import { runSettingCost } from "./plan-setting-cost.ts";

/** The breaker's work for one call: lookup, admission, a success recorded. */
function breakerWork(): () => void {
  const breakers = new CircuitBreakers();
  const settings = circuitBreaker.parse(undefined);
  const planId = "0b5c6f7e-0000-4000-8000-0000000000bb";
  const origin = "http://127.0.0.1:8080";
  return () => {
    const breaker = breakers.of(planId, origin);
    const ticket = breaker.admit();
    if (typeof ticket !== "number") throw new Error("a closed breaker refused a call");
    breaker.record(ticket, "reached", settings);
  };
}

await runSettingCost({
  role: "breaker-cost",
  title: "Circuit breaker cost",
  variants: [
    { label: "breaker on", plan: { circuitBreaker: { enabled: true } } },
    { label: "breaker off", plan: { circuitBreaker: { enabled: false } } },
  ],
  target: 1.05,
  workOfOneCall: breakerWork,
  inProcessLabel: "the breaker's own work",
});
