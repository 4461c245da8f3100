/**
 * The breaker on its own, on an injected clock: when it opens, how long it refuses, the single
 * trial of a half-open breaker, outcomes of calls admitted before an open, and isolation by plan
 * and origin.
 */
import { circuitBreaker } from "@atrium/crds";
import { describe, expect, it } from "vitest";
import { type CircuitBreaker, CircuitBreakers, isRefusal, type Refusal, type Ticket } from "./circuit-breaker.ts";
import { ExpositionRegistry } from "./registry.ts";
import { exposition } from "./tools/fixtures.ts";

const settings = circuitBreaker.parse({ consecutiveFailures: 3, coolDownSeconds: 10 });

/** The injected clock's time, in milliseconds: each test sets it. */
let now = 0;

function clocked() {
  now = 0;
  const breakers = new CircuitBreakers(() => now);
  return { breakers, breaker: breakers.of("plan-a", "http://127.0.0.1:1") };
}

/** Sets the clock. */
function at(time: number): void {
  now = time;
}

function admitted(breaker: CircuitBreaker, time: number): Ticket {
  at(time);
  const admission = breaker.admit();
  if (isRefusal(admission)) throw new Error(`refused: retry in ${admission.retryAfterSeconds} s`);
  return admission;
}

function refused(breaker: CircuitBreaker, time: number): Refusal {
  at(time);
  const admission = breaker.admit();
  if (!isRefusal(admission)) throw new Error("admitted");
  return admission;
}

function recorded(
  breaker: CircuitBreaker,
  ticket: Ticket,
  verdict: "reached" | "unreachable" | "neutral",
  time: number,
) {
  at(time);
  return breaker.record(ticket, verdict, settings);
}

function stateAt(breaker: CircuitBreaker, time: number) {
  at(time);
  return breaker.current;
}

/** Admits and fails `count` calls one after the other; returns the last transition. */
function failInTurn(breaker: CircuitBreaker, count: number, time: number) {
  let transition: string | undefined;
  for (let i = 0; i < count; i++) transition = recorded(breaker, admitted(breaker, time), "unreachable", time);
  return transition;
}

describe("CircuitBreaker", () => {
  it("opens at the Nth consecutive failure, not before, and a reached backend resets the count", () => {
    const { breaker } = clocked();
    expect(failInTurn(breaker, 2, 0)).toBeUndefined();
    expect(recorded(breaker, admitted(breaker, 0), "reached", 0)).toBeUndefined();
    expect(failInTurn(breaker, 2, 0)).toBeUndefined();
    expect(stateAt(breaker, 0)).toBe("closed");
    expect(failInTurn(breaker, 1, 0)).toBe("opened");
    expect(stateAt(breaker, 0)).toBe("open");
  });

  it("refuses for the cool-down with the seconds left, then lets one trial through", () => {
    const { breaker } = clocked();
    failInTurn(breaker, 3, 1_000);
    expect(refused(breaker, 1_000)).toMatchObject({ retryAfterSeconds: 10, correlationId: breaker.correlationId });
    expect(breaker.correlationId).toMatch(/^[0-9a-f]{16}$/);
    expect(refused(breaker, 8_500).retryAfterSeconds).toBe(3);
    expect(refused(breaker, 10_999).retryAfterSeconds).toBe(1);
    expect(stateAt(breaker, 11_000)).toBe("half_open");
    const trial = admitted(breaker, 11_000);
    // Others are refused while the trial is out.
    expect(refused(breaker, 11_001).retryAfterSeconds).toBe(1);
    expect(stateAt(breaker, 11_001)).toBe("half_open");
    expect(recorded(breaker, trial, "reached", 11_200)).toBe("closed");
    expect(stateAt(breaker, 11_200)).toBe("closed");
    admitted(breaker, 11_200);
  });

  it("a failed trial opens it for another whole cool-down, with a new correlation id", () => {
    const { breaker } = clocked();
    failInTurn(breaker, 3, 0);
    const first = breaker.correlationId;
    const trial = admitted(breaker, 10_000);
    expect(recorded(breaker, trial, "unreachable", 12_000)).toBe("opened");
    expect(breaker.correlationId).not.toBe(first);
    expect(refused(breaker, 21_999).retryAfterSeconds).toBe(1);
    admitted(breaker, 22_000);
  });

  it("a trial that was never sent (neutral) leaves the next call to be the trial", () => {
    const { breaker } = clocked();
    failInTurn(breaker, 3, 0);
    const trial = admitted(breaker, 10_000);
    expect(recorded(breaker, trial, "neutral", 10_000)).toBeUndefined();
    const next = admitted(breaker, 10_001);
    expect(recorded(breaker, next, "reached", 10_002)).toBe("closed");
  });

  it("with calls in flight: outcomes of calls admitted before the open change nothing after it", () => {
    const { breaker } = clocked();
    const inFlight = Array.from({ length: 10 }, () => admitted(breaker, 0));
    const transitions = inFlight.map((ticket) => recorded(breaker, ticket, "unreachable", 0));
    // Exactly one of them opened it; the seven after did nothing.
    expect(transitions.filter((t) => t === "opened")).toHaveLength(1);
    expect(transitions[2]).toBe("opened");

    // A late success of a call admitted before the open does not close it…
    const { breaker: second } = clocked();
    const before = Array.from({ length: 4 }, () => admitted(second, 0));
    failInTurn(second, 3, 0);
    expect(recorded(second, before[0] as Ticket, "reached", 1)).toBeUndefined();
    expect(stateAt(second, 1)).toBe("open");
    // …and after a trial closed it, late failures of the earlier period do not count toward a new open.
    expect(recorded(second, admitted(second, 10_000), "reached", 10_000)).toBe("closed");
    for (const ticket of before.slice(1)) recorded(second, ticket, "unreachable", 10_001);
    expect(failInTurn(second, 2, 10_002)).toBeUndefined();
    expect(stateAt(second, 10_002)).toBe("closed");
  });

  it("the threshold is read at each outcome: lowering it applies to the count so far", () => {
    const { breaker } = clocked();
    failInTurn(breaker, 2, 0);
    const lower = circuitBreaker.parse({ consecutiveFailures: 1, coolDownSeconds: 1 });
    expect(breaker.record(admitted(breaker, 0), "unreachable", lower)).toBe("opened");
    expect(refused(breaker, 999).retryAfterSeconds).toBe(1);
    admitted(breaker, 1_000);
  });
});

describe("CircuitBreakers", () => {
  it("reads no clock for a closed breaker's calls (the hot path)", () => {
    let reads = 0;
    const breakers = new CircuitBreakers(() => {
      reads++;
      return 0;
    });
    const breaker = breakers.of("plan-a", "http://127.0.0.1:1");
    for (let i = 0; i < 100; i++) breaker.record(admitted(breaker, 0), i % 2 ? "reached" : "unreachable", settings);
    expect(reads).toBe(0);
    expect(breaker.current).toBe("closed");
  });

  it("keeps one breaker per plan and origin: another plan on the same origin is unaffected", () => {
    const { breakers, breaker } = clocked();
    failInTurn(breaker, 3, 0);
    expect(breakers.stateOf("plan-a", "http://127.0.0.1:1")).toBe("open");
    expect(breakers.stateOf("plan-b", "http://127.0.0.1:1")).toBe("closed");
    expect(breakers.stateOf("plan-a", "http://127.0.0.1:2")).toBe("closed");
    admitted(breakers.of("plan-b", "http://127.0.0.1:1"), 0);
    expect(breakers.of("plan-a", "http://127.0.0.1:1")).toBe(breaker);
  });

  it("drops the breakers of plans no longer served", () => {
    const { breakers, breaker } = clocked();
    failInTurn(breaker, 3, 0);
    breakers.keepOnly([{ planId: "plan-a", origin: "http://127.0.0.1:1" }]);
    expect(breakers.stateOf("plan-a", "http://127.0.0.1:1")).toBe("open");
    breakers.keepOnly([]);
    expect(breakers.stateOf("plan-a", "http://127.0.0.1:1")).toBe("closed");
    expect(breakers.of("plan-a", "http://127.0.0.1:1")).not.toBe(breaker);
  });
});

describe("plans from a control plane that predates the breaker", () => {
  it("are served with the breaker's defaults", () => {
    const { circuitBreaker: _absent, ...plan } = exposition().plan;
    const registry = new ExpositionRegistry();
    expect(registry.replaceAll([{ ...exposition(), plan }])).toEqual([]);
    expect(registry.byId(exposition().id)?.exposition.plan.circuitBreaker).toEqual({
      enabled: true,
      consecutiveFailures: 5,
      coolDownSeconds: 30,
    });
  });
});
