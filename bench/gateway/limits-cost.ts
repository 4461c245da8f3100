/**
 * What the plan's limits cost per call (issue 14's target: at most +5 % CPU per call). Two
 * measures (plan-setting-cost.ts): the limiter's own work in this process — a call admitted by
 * the plan's rate and concurrency budgets and by its tool's, then released — and one gateway
 * loaded with a plan that has limits (far above the load, so that none refuses) and one without.
 *
 *   node bench/gateway/limits-cost.ts [--duration 10] [--rounds 5] [--connections 32] [--warmup 2] [--busy] [--quick]
 */
import { ExpositionLimiter } from "@atrium/gateway";
import { runSettingCost } from "./plan-setting-cost.ts";

/** Every budget a call can spend, set far above what the load reaches. */
const LIMITS = {
  requestsPerSecond: 100_000,
  burst: 100_000,
  concurrentCalls: 10_000,
  tools: { getPet: { requestsPerSecond: 100_000, burst: 100_000, concurrentCalls: 10_000 } },
};

/** The limiter's work for one call: admitted by the plan's and the tool's budgets, then released. */
function limiterWork(): () => void {
  // Rates past the schema's bounds: a million calls in a tight loop must never run out.
  const huge = { requestsPerSecond: 1e12, burst: 1e12, concurrentCalls: 10_000 };
  const limiter = new ExpositionLimiter({ per: "plan", ...huge, tools: { getPet: huge } });
  return () => {
    const admission = limiter.admit(undefined, "getPet");
    if (!admission.admitted) throw new Error("the limiter refused a call under its limits");
    admission.release();
  };
}

await runSettingCost({
  role: "limits-cost",
  title: "Limits cost",
  variants: [
    { label: "limits on", plan: { limits: LIMITS } },
    { label: "no limits", plan: {} },
  ],
  target: 1.05,
  workOfOneCall: limiterWork,
  inProcessLabel: "the limiter's own work",
});
