/**
 * Overload protection of one Exposition (its plan's `limits`), on this replica: a token bucket
 * for the request rate and a counter of calls in progress, for the plan (or each caller, with
 * `per: caller`) and for each limited tool. Every backend call of `tools/call` and `resources/read`
 * asks `admit` first; an admitted call gives its slot back with `release` once the backend
 * answered.
 *
 * A call is admitted only when every budget it spends has room, and spends them all at once:
 * a refusal by a tool's budget takes nothing from the plan's. State lives with the served
 * Exposition, so a changed plan starts with full buckets. Per-caller budgets are kept for at
 * most MAX_CALLERS callers; the idle one seen least recently is forgotten first (it comes back with
 * a full bucket, which an idle caller would have anyway). A caller with calls in progress is never
 * forgotten, or its next calls would pass its concurrency cap: past the bound, the map holds those
 * too, and they are at most the calls this replica runs at once.
 */
import type { CompiledExposition } from "@atrium/contract";

export type PlanLimits = NonNullable<CompiledExposition["plan"]["limits"]>;
type BudgetSettings = Pick<PlanLimits, "requestsPerSecond" | "burst" | "concurrentCalls">;

/** Who a refusal was for: the plan's budget, one caller's, or one tool's. */
export type LimitScope = "plan" | "caller" | "tool";
export type LimitKind = "rate" | "concurrency";

/** Callers whose budgets one Exposition keeps. */
export const MAX_CALLERS = 10_000;

export interface LimitRefusal {
  scope: LimitScope;
  kind: LimitKind;
  /** Whole seconds after which a retry may be admitted (at least 1). */
  retryAfterSeconds: number;
  /** The limit that refused it, for the message: calls per second, or calls at once. */
  limit: number;
}

export type Admission = { readonly admitted: true; release(): void } | ({ admitted: false } & LimitRefusal);

/** The state of one budget: tokens in the bucket as of `refilledAt` (ms), and calls in progress. */
class Budget {
  tokens: number;
  refilledAt: number;
  inFlight = 0;

  constructor(capacity: number, now: number) {
    this.tokens = capacity;
    this.refilledAt = now;
  }
}

/** One configured budget (the plan's, or a tool's) and how to judge and spend a Budget of it. */
class BudgetRule {
  readonly rate: number | undefined;
  readonly capacity: number;
  readonly concurrent: number | undefined;

  constructor(settings: BudgetSettings) {
    this.rate = settings.requestsPerSecond;
    this.capacity = settings.burst ?? Math.max(1, Math.ceil(settings.requestsPerSecond ?? 1));
    this.concurrent = settings.concurrentCalls;
  }

  fresh(now: number): Budget {
    return new Budget(this.capacity, now);
  }

  /** Refills `budget` to `now`; a refusal when it has no room, else undefined. */
  check(budget: Budget, now: number, scope: LimitScope): LimitRefusal | undefined {
    if (this.concurrent !== undefined && budget.inFlight >= this.concurrent) {
      return { scope, kind: "concurrency", retryAfterSeconds: 1, limit: this.concurrent };
    }
    if (this.rate === undefined) return undefined;
    budget.tokens = Math.min(this.capacity, budget.tokens + ((now - budget.refilledAt) / 1000) * this.rate);
    budget.refilledAt = now;
    if (budget.tokens >= 1) return undefined;
    const seconds = Math.max(1, Math.ceil((1 - budget.tokens) / this.rate));
    return { scope, kind: "rate", retryAfterSeconds: seconds, limit: this.rate };
  }

  spend(budget: Budget): void {
    if (this.rate !== undefined) budget.tokens -= 1;
    budget.inFlight++;
  }
}

/** One caller's budgets: the plan's, and those of the limited tools they called. */
interface CallerBudgets {
  plan: Budget | undefined;
  tools: Map<string, Budget>;
}

/** Callers' budgets, the least recently seen first; bounded to `max` callers. */
class CallerMap {
  private readonly callers = new Map<string, CallerBudgets>();
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** Budgets held, over all callers. */
  get budgets(): number {
    let count = 0;
    for (const { plan, tools } of this.callers.values()) count += (plan ? 1 : 0) + tools.size;
    return count;
  }

  of(caller: string): CallerBudgets {
    let budgets = this.callers.get(caller);
    if (budgets) {
      this.callers.delete(caller);
    } else {
      budgets = { plan: undefined, tools: new Map() };
      if (this.callers.size >= this.max) this.forgetLeastRecentIdle();
    }
    this.callers.set(caller, budgets);
    return budgets;
  }

  private forgetLeastRecentIdle(): void {
    for (const [caller, { plan, tools }] of this.callers) {
      if ((plan?.inFlight ?? 0) > 0) continue;
      if ([...tools.values()].some((budget) => budget.inFlight > 0)) continue;
      this.callers.delete(caller);
      return;
    }
  }
}

/** An admitted call: `release` gives its slots back, once. */
class Admitted {
  readonly admitted = true;
  private planBudget: Budget | undefined;
  private toolBudget: Budget | undefined;

  constructor(planBudget: Budget | undefined, toolBudget: Budget | undefined) {
    this.planBudget = planBudget;
    this.toolBudget = toolBudget;
  }

  release(): void {
    if (this.planBudget) this.planBudget.inFlight--;
    if (this.toolBudget) this.toolBudget.inFlight--;
    this.planBudget = undefined;
    this.toolBudget = undefined;
  }
}

export class ExpositionLimiter {
  private readonly per: "plan" | "caller";
  private readonly plan: BudgetRule | undefined;
  private readonly tools: Map<string, BudgetRule>;
  private readonly now: () => number;
  /** Whether any budget has a rate: caps alone never read the clock. */
  private readonly timed: boolean;
  /** Per plan: the plan's budget, and each limited tool's. */
  private readonly shared: Budget | undefined;
  private readonly sharedTools: Map<string, Budget>;
  /** Per caller: the budgets of each caller seen lately. */
  private readonly byCaller: CallerMap;

  /** `now`: a clock in milliseconds (tests inject their own). */
  constructor(limits: PlanLimits, now: () => number = performance.now.bind(performance), maxCallers = MAX_CALLERS) {
    this.per = limits.per;
    this.now = now;
    const { requestsPerSecond, burst, concurrentCalls } = limits;
    const limited = requestsPerSecond !== undefined || concurrentCalls !== undefined;
    this.plan = limited ? new BudgetRule({ requestsPerSecond, burst, concurrentCalls }) : undefined;
    this.tools = new Map(
      Object.entries(limits.tools ?? {}).map(([name, settings]) => [name, new BudgetRule(settings)]),
    );
    this.timed = [this.plan, ...this.tools.values()].some((rule) => rule?.rate !== undefined);
    const perPlan = this.per === "plan";
    const started = this.timed ? now() : 0;
    this.shared = perPlan ? this.plan?.fresh(started) : undefined;
    this.sharedTools = new Map(perPlan ? [...this.tools].map(([name, rule]) => [name, rule.fresh(started)]) : []);
    this.byCaller = new CallerMap(perPlan ? 0 : maxCallers);
  }

  /** Budgets held (tests: the caller map stays bounded). */
  get keptBudgets(): number {
    return this.byCaller.budgets + this.sharedTools.size + (this.shared ? 1 : 0);
  }

  /**
   * Admits one backend call, or says which budget refused it. `caller`: who calls, on an
   * OAuth-protected plan (issuer and subject); `tool`: the tool called, undefined for a resource.
   */
  admit(caller: string | undefined, tool: string | undefined): Admission {
    const now = this.timed ? this.now() : 0;
    const planRule = this.plan;
    const toolRule = tool === undefined ? undefined : this.tools.get(tool);
    let planBudget: Budget | undefined;
    let toolBudget: Budget | undefined;
    if (this.per === "plan") {
      planBudget = this.shared;
      toolBudget = toolRule && this.sharedTools.get(tool as string);
    } else {
      const budgets = this.byCaller.of(caller ?? "");
      if (planRule) budgets.plan ??= planRule.fresh(now);
      planBudget = budgets.plan;
      if (toolRule) {
        toolBudget = budgets.tools.get(tool as string);
        if (!toolBudget) {
          toolBudget = toolRule.fresh(now);
          budgets.tools.set(tool as string, toolBudget);
        }
      }
    }
    const refused =
      (planRule && planBudget && planRule.check(planBudget, now, this.per)) ??
      (toolRule && toolBudget && toolRule.check(toolBudget, now, "tool"));
    if (refused) return { admitted: false, ...refused };
    if (planRule && planBudget) planRule.spend(planBudget);
    if (toolRule && toolBudget) toolRule.spend(toolBudget);
    return new Admitted(planBudget, toolBudget);
  }
}
