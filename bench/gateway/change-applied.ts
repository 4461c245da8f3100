/**
 * How soon a gateway serves an Exposition change after the control plane commits it. The change:
 * the Exposition's plan stops leaving out one operation (its tool appears in tools/list), then
 * leaves it out again (it disappears), and so on — a plan PUT through the REST API, which commits
 * and records the change before it answers. A watcher in its own process (change-watch.ts) asks
 * the endpoint tools/list back to back while the write runs, and reads the monotonic clock (shared
 * by every process of the machine) when the first answer shows the change.
 *
 * Two times per change: from the write's answer (the commit precedes it, so this is at most the
 * true figure plus the answer's way back) and from sending the write (at least the true figure:
 * it adds the control plane's handling of the PUT). The watcher adds at most one round trip,
 * reported as its resolution. Beside them, the CPU the gateway process used from the write to
 * the change seen (applying it, and answering the watcher): what a busy machine does not inflate.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ApiClient } from "@atrium/control-plane/testing";
import type { WatchJob, WatchResult } from "./change-watch.ts";
import type { BenchContext } from "./contestants.ts";
import { median } from "./load.ts";
import { cpuMicros, HARNESS_CORE, startPinned } from "./processes.ts";
import { monotonicMicros } from "./profile.ts";
import { type PlanOptions, updatePlan } from "./setup.ts";

/** An Exposition's plan the check rewrites, and the tool that comes and goes with it. */
export interface ChangeProbe {
  planId: string;
  /** The plan as created: `operationId` (whose tool is `tool`) among its excluded operations. */
  plan: PlanOptions;
  operationId: string;
  tool: string;
}

export interface ChangeAppliedResult {
  changes: number;
  /** From the write's answer to the first answer of the gateway showing the change, ms. */
  fromAnswerMs: number[];
  /** From sending the write, ms. */
  fromRequestMs: number[];
  /** CPU time of the gateway process from sending the write to the change seen, ms. */
  gatewayCpuMs: number[];
  /** The watcher's mean round trip (its resolution), ms, median over the changes. */
  resolutionMs: number;
}

/** `changes` changes one after the other, the tool listed after odd ones. */
export async function measureChangeApplied(
  context: BenchContext,
  admin: ApiClient,
  probe: ChangeProbe,
  /** The Exposition's MCP endpoint on the gateway under test, and that gateway's process. */
  on: { url: string; gatewayPid: number },
  changes: number,
): Promise<ChangeAppliedResult> {
  const fromAnswerMs: number[] = [];
  const fromRequestMs: number[] = [];
  const gatewayCpuMs: number[] = [];
  const resolutionMs: number[] = [];
  const others = (probe.plan.excludedOperations ?? []).filter((id) => id !== probe.operationId);
  for (let i = 0; i < changes; i++) {
    const listed = i % 2 === 0;
    const excluded = listed ? others : [...others, probe.operationId];
    const job: WatchJob = { url: on.url, tool: probe.tool, listed, timeoutMs: 60_000 };
    const jobFile = join(context.scratchDir, `change-watch-${i}.json`);
    writeFileSync(jobFile, JSON.stringify(job));
    const watcher = startPinned("change watcher", HARNESS_CORE, [
      join(import.meta.dirname, "change-watch.ts"),
      jobFile,
    ]);
    try {
      await watcher.waitForOutput(/^watching$/m);
      const cpuBefore = cpuMicros(on.gatewayPid);
      const sent = monotonicMicros();
      await updatePlan(admin, probe.planId, { ...probe.plan, excludedOperations: excluded });
      const answered = monotonicMicros();
      const seen = JSON.parse((await watcher.waitForOutput(/^seen (\{.*\})$/m, 70_000))[1] ?? "{}") as WatchResult;
      gatewayCpuMs.push((cpuMicros(on.gatewayPid) - cpuBefore) / 1000);
      fromAnswerMs.push((seen.atMicros - answered) / 1000);
      fromRequestMs.push((seen.atMicros - sent) / 1000);
      resolutionMs.push(seen.roundTripMicros / 1000);
    } finally {
      await watcher.stop();
    }
  }
  return { changes, fromAnswerMs, fromRequestMs, gatewayCpuMs, resolutionMs: median(resolutionMs) };
}
