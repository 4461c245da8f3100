/**
 * Where a profiled gateway spends its CPU: reads the `.cpuprofile` that `node --cpu-prof`
 * wrote (run.ts `--profile` starts the Atrium contestants that way) and sums sample time per
 * area (gateway code, fastify, undici, node internals, GC…) and per function, self and total.
 *
 *   node bench/gateway/profile.ts <file.cpuprofile> [top]
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds on the monotonic clock, the one `process.hrtime` reads in any process. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The monotonic clock V8 stamps CPU profiles with, in microseconds. */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/** A span of the monotonic clock in microseconds (`process.hrtime.bigint() / 1000n`). */
export interface Window {
  fromUs: number;
  toUs: number;
}

/** node_modules/<package>, gateway/src/<dir>, node internals, or the pseudo-frames (GC, idle, program). */
function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith("node:")) return "node internals";
  const workspace =
    /\/work\/main\/([^/]+\/src(?:\/[^/]+(?=\/))?)/.exec(url)?.[1] ?? /\/(gateway|control-plane|crds)\//.exec(url)?.[1];
  return workspace ?? url;
}

export interface ProfileSummary {
  totalMs: number;
  /** Busy time: everything but `(idle)`. */
  busyMs: number;
  areas: { area: string; selfMs: number }[];
  functions: { name: string; selfMs: number; totalMs: number }[];
}

/** Only the samples inside `windows` when given (all of them if none falls inside one). */
export function summarizeCpuProfile(file: string, windows: Window[] = []): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const sampleSelfTimes = (inside: (at: number) => boolean) => {
    const times = new Map<number, number>();
    let at = profile.startTime;
    profile.samples.forEach((id, i) => {
      const delta = profile.timeDeltas[i] ?? 0;
      at += delta;
      if (inside(at)) times.set(id, (times.get(id) ?? 0) + delta);
    });
    return times;
  };
  const windowed = sampleSelfTimes((at) => windows.some((window) => at >= window.fromUs && at <= window.toUs));
  const selfUs = windowed.size > 0 ? windowed : sampleSelfTimes(() => true);
  const label = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url
      ? `${url.replace(/^file:\/\/\/work\/main\//, "").replace(/^.*node_modules\//, "")}:${lineNumber + 1}`
      : "";
    return `${functionName || "(anonymous)"} ${where}`.trim();
  };

  const areas = new Map<string, number>();
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  // Total time: a function's subtree, counted once per stack even when it recurses.
  const walk = (id: number, onStack: Set<string>): number => {
    const node = byId.get(id);
    if (!node) return 0;
    const name = label(node);
    const own = selfUs.get(id) ?? 0;
    areas.set(
      areaOf(node.callFrame.url, node.callFrame.functionName),
      (areas.get(areaOf(node.callFrame.url, node.callFrame.functionName)) ?? 0) + own,
    );
    self.set(name, (self.get(name) ?? 0) + own);
    const entered = !onStack.has(name);
    if (entered) onStack.add(name);
    let subtree = own;
    for (const child of node.children ?? []) subtree += walk(child, onStack);
    if (entered) {
      onStack.delete(name);
      total.set(name, (total.get(name) ?? 0) + subtree);
    }
    return subtree;
  };
  const root = profile.nodes[0];
  const totalUs = root ? walk(root.id, new Set()) : 0;
  const idleUs = [...byId.values()]
    .filter((node) => node.callFrame.functionName === "(idle)")
    .reduce((sum, node) => sum + (selfUs.get(node.id) ?? 0), 0);
  const ms = (us: number) => us / 1000;
  return {
    totalMs: ms(totalUs),
    busyMs: ms(totalUs - idleUs),
    areas: [...areas]
      .filter(([area]) => area !== "(idle)")
      .map(([area, us]) => ({ area, selfMs: ms(us) }))
      .sort((a, b) => b.selfMs - a.selfMs),
    functions: [...self]
      .filter(([name]) => !name.startsWith("(idle)") && !name.startsWith("(root)"))
      .map(([name, us]) => ({ name, selfMs: ms(us), totalMs: ms(total.get(name) ?? us) }))
      .sort((a, b) => b.selfMs - a.selfMs),
  };
}

/** Markdown: areas by self time, the top functions by self time, and gateway functions by total time. */
export function profileMarkdown(title: string, summary: ProfileSummary, top = 25): string {
  const share = (ms: number) => `${((ms / summary.busyMs) * 100).toFixed(1)} %`;
  const areaRows = summary.areas.slice(0, 15).map((a) => `| ${a.area} | ${a.selfMs.toFixed(0)} | ${share(a.selfMs)} |`);
  const functionRows = summary.functions
    .slice(0, top)
    .map((f) => `| \`${f.name}\` | ${f.selfMs.toFixed(0)} | ${share(f.selfMs)} | ${share(f.totalMs)} |`);
  const gatewayRows = summary.functions
    .filter((f) => f.name.includes("gateway/src/") || f.name.includes("control-plane/src/"))
    .sort((a, b) => b.totalMs - a.totalMs)
    .slice(0, top)
    .map((f) => `| \`${f.name}\` | ${share(f.totalMs)} | ${share(f.selfMs)} |`);
  return [
    `#### ${title}: ${summary.busyMs.toFixed(0)} ms busy of ${summary.totalMs.toFixed(0)} ms profiled`,
    "| area | self ms | share of busy |\n|---|--:|--:|",
    areaRows.join("\n"),
    "",
    "| function (self time) | self ms | self share | total share |\n|---|--:|--:|--:|",
    functionRows.join("\n"),
    "",
    "| gateway function (total time) | total share | self share |\n|---|--:|--:|",
    gatewayRows.join("\n"),
  ].join("\n");
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: profile.ts <file.cpuprofile> [top]");
  console.log(profileMarkdown(file, summarizeCpuProfile(file), Number(process.argv[3] ?? 25)));
}
