/**
 * The limiter on a clock the test moves: token buckets refill at their rate up to their burst,
 * concurrency caps free a slot on release, budgets are per plan or per caller, a tool's refusal
 * spends nothing of the plan's, and the caller map stays bounded.
 */
import { describe, expect, it } from "vitest";
import { type Admission, ExpositionLimiter, type PlanLimits } from "./limits.ts";

function limiter(limits: Partial<PlanLimits>, maxCallers?: number) {
  const clock = { ms: 0 };
  const limiter = new ExpositionLimiter({ per: "plan", ...limits }, () => clock.ms, maxCallers);
  return { limiter, clock };
}

/** How many of `count` calls in a row are admitted (each released at once). */
function admittedOf(limiter: ExpositionLimiter, count: number, caller?: string, tool?: string): number {
  let admitted = 0;
  for (let i = 0; i < count; i++) {
    const admission = limiter.admit(caller, tool);
    if (admission.admitted) {
      admitted++;
      admission.release();
    }
  }
  return admitted;
}

function refusal(admission: Admission) {
  if (admission.admitted) throw new Error("expected a refusal");
  return admission;
}

describe("ExpositionLimiter", () => {
  it("admits the burst at once, then the rate", () => {
    const { limiter: limits, clock } = limiter({ requestsPerSecond: 10, burst: 5 });
    expect(admittedOf(limits, 20)).toBe(5);
    clock.ms += 100; // one token back at 10 per second
    expect(admittedOf(limits, 20)).toBe(1);
    clock.ms += 10_000; // refilled to the burst, never past it
    expect(admittedOf(limits, 20)).toBe(5);
  });

  it("takes requestsPerSecond rounded up as the burst when none is set", () => {
    expect(admittedOf(limiter({ requestsPerSecond: 2.5 }).limiter, 10)).toBe(3);
    expect(admittedOf(limiter({ requestsPerSecond: 0.1 }).limiter, 10)).toBe(1);
  });

  it("says in whole seconds when the next token comes", () => {
    const { limiter: limits, clock } = limiter({ requestsPerSecond: 0.25 });
    expect(admittedOf(limits, 1)).toBe(1);
    expect(refusal(limits.admit(undefined, undefined))).toEqual({
      admitted: false,
      scope: "plan",
      kind: "rate",
      retryAfterSeconds: 4,
      limit: 0.25,
    });
    clock.ms += 2_500;
    expect(refusal(limits.admit(undefined, undefined)).retryAfterSeconds).toBe(2);
    clock.ms += 1_500;
    expect(admittedOf(limits, 1)).toBe(1);
    // Fast rates still ask for at least one second.
    const fast = limiter({ requestsPerSecond: 1_000, burst: 1 }).limiter;
    expect(admittedOf(fast, 1)).toBe(1);
    expect(refusal(fast.admit(undefined, undefined)).retryAfterSeconds).toBe(1);
  });

  it("caps calls in progress until one is released, once", () => {
    const { limiter: limits } = limiter({ concurrentCalls: 2 });
    const first = limits.admit(undefined, undefined);
    const second = limits.admit(undefined, undefined);
    expect(first.admitted && second.admitted).toBe(true);
    expect(refusal(limits.admit(undefined, undefined))).toMatchObject({ scope: "plan", kind: "concurrency", limit: 2 });
    if (!first.admitted) return;
    first.release();
    first.release(); // a second release frees nothing more
    const third = limits.admit(undefined, undefined);
    expect(third.admitted).toBe(true);
    expect(refusal(limits.admit(undefined, undefined)).kind).toBe("concurrency");
  });

  it("never reads the clock when no budget has a rate", () => {
    const clockless = () => {
      throw new Error("the clock was read");
    };
    const limits = new ExpositionLimiter(
      { per: "caller", concurrentCalls: 1, tools: { slow: { concurrentCalls: 1 } } },
      clockless,
    );
    expect(admittedOf(limits, 3, "alice", "slow")).toBe(3);
  });

  it("gives each caller a budget of their own with per: caller", () => {
    const { limiter: limits } = limiter({ per: "caller", requestsPerSecond: 1, burst: 2 });
    expect(admittedOf(limits, 5, "alice")).toBe(2);
    expect(admittedOf(limits, 5, "bob")).toBe(2);
    expect(refusal(limits.admit("alice", undefined)).scope).toBe("caller");
  });

  it("shares one budget among callers with per: plan", () => {
    const { limiter: limits } = limiter({ requestsPerSecond: 1, burst: 2 });
    expect(admittedOf(limits, 1, "alice") + admittedOf(limits, 5, "bob")).toBe(2);
  });

  it("limits a tool on top of the plan, and a tool's refusal spends nothing of the plan's", () => {
    const { limiter: limits } = limiter({
      requestsPerSecond: 1,
      burst: 3,
      tools: { createPet: { requestsPerSecond: 1, burst: 1 }, slow: { concurrentCalls: 1 } },
    });
    expect(admittedOf(limits, 1, undefined, "createPet")).toBe(1);
    expect(refusal(limits.admit(undefined, "createPet"))).toMatchObject({ scope: "tool", kind: "rate" });
    // The plan's bucket lost one token, not two: two calls of another tool still pass.
    expect(admittedOf(limits, 5, undefined, "listPets")).toBe(2);
    expect(refusal(limits.admit(undefined, "listPets")).scope).toBe("plan");
  });

  it("caps a tool's calls in progress without capping the others", () => {
    const { limiter: limits } = limiter({ tools: { slow: { concurrentCalls: 1 } } });
    const held = limits.admit(undefined, "slow");
    expect(held.admitted).toBe(true);
    expect(refusal(limits.admit(undefined, "slow"))).toMatchObject({ scope: "tool", kind: "concurrency" });
    expect(admittedOf(limits, 50, undefined, "fast")).toBe(50);
    expect(admittedOf(limits, 50, undefined, undefined)).toBe(50);
  });

  it("keeps tool budgets per caller with per: caller", () => {
    const { limiter: limits } = limiter({ per: "caller", tools: { createPet: { requestsPerSecond: 1 } } });
    expect(admittedOf(limits, 3, "alice", "createPet")).toBe(1);
    expect(admittedOf(limits, 3, "bob", "createPet")).toBe(1);
  });

  it("forgets the least recently seen caller past the bound", () => {
    const { limiter: limits } = limiter({ per: "caller", requestsPerSecond: 1, burst: 1 }, 100);
    expect(admittedOf(limits, 1, "first")).toBe(1);
    for (let i = 0; i < 1_000; i++) admittedOf(limits, 1, `caller-${i}`);
    expect(limits.keptBudgets).toBe(100);
    // Forgotten, so back with a full bucket; a recent caller is still out of tokens.
    expect(admittedOf(limits, 1, "first")).toBe(1);
    expect(admittedOf(limits, 1, "caller-999")).toBe(0);
  });

  it("never forgets a caller with calls in progress, whose cap would reset", () => {
    const { limiter: limits } = limiter({ per: "caller", concurrentCalls: 1 }, 10);
    const held = limits.admit("busy", undefined);
    const heldTool = limiter({ per: "caller", tools: { slow: { concurrentCalls: 1 } } }, 10).limiter;
    const toolHeld = heldTool.admit("busy", "slow");
    for (let i = 0; i < 100; i++) {
      admittedOf(limits, 1, `caller-${i}`);
      admittedOf(heldTool, 1, `caller-${i}`, "slow");
    }
    expect(refusal(limits.admit("busy", undefined))).toMatchObject({ scope: "caller", kind: "concurrency" });
    expect(refusal(heldTool.admit("busy", "slow"))).toMatchObject({ scope: "tool", kind: "concurrency" });
    expect(limits.keptBudgets).toBe(10);
    if (held.admitted) held.release();
    if (toolHeld.admitted) toolHeld.release();
    // Idle again, it is forgotten like the others.
    for (let i = 100; i < 120; i++) admittedOf(limits, 1, `caller-${i}`);
    expect(admittedOf(limits, 1, "busy")).toBe(1);
  });
});
