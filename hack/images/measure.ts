/**
 * `node hack/images/measure.ts [--tag <tag>] [<component>...]` (build.sh runs it after a build):
 * starts each image once as a deployment would (components.ts), then prints its size, the time
 * from `podman run` to its readiness answer, and the time a SIGTERM takes to stop it, with the
 * gateway's targets (under 150 MB, ready within 2 s) checked. Exits 1 when an image does not start.
 */
import { parseArgs } from "node:util";
import { createFixture, type Started, startComponent } from "./components.ts";
import { COMPONENTS, type Component, DEFAULT_TAG, imageName, inspectImage } from "./containers.ts";

const GATEWAY_MAX_BYTES = 150_000_000;
const GATEWAY_MAX_READY_MS = 2_000;

const { values, positionals } = parseArgs({ options: { tag: { type: "string" } }, allowPositionals: true });
const tag = values.tag ?? DEFAULT_TAG;
for (const name of positionals) {
  if (!COMPONENTS.includes(name as Component)) {
    console.error(`measure.ts: unknown component '${name}' (one of ${COMPONENTS.join(", ")})`);
    process.exit(2);
  }
}
const wanted = positionals.length > 0 ? (positionals as Component[]) : [...COMPONENTS];

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(0)} MB`;
const secondsText = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const fixture = await createFixture(tag);
const rows: string[][] = [];
let failed = false;
try {
  const started: Started[] = [];
  // In COMPONENTS order: the control plane first, as the others need it.
  for (const component of COMPONENTS.filter((c) => wanted.includes(c))) {
    process.stderr.write(`measuring ${imageName(component, tag)}...\n`);
    started.push(await startComponent(fixture, component));
  }
  // Stopped in reverse: the gateway deregisters while the control plane still answers.
  const stopped = new Map<Component, { ms: number; exitCode: number }>();
  for (const item of [...started].reverse()) stopped.set(item.component, await item.container.stop());
  for (const item of started) {
    const size = (await inspectImage(imageName(item.component, tag))).size;
    const stop = stopped.get(item.component);
    const notes: string[] = [];
    if (item.component === "gateway") {
      notes.push(size < GATEWAY_MAX_BYTES ? "size target met" : "OVER the 150 MB target");
      notes.push(item.readyMs <= GATEWAY_MAX_READY_MS ? "ready target met" : "SLOWER than the 2 s target");
    }
    if (stop && stop.exitCode !== 0) {
      notes.push(`exit code ${stop.exitCode} on SIGTERM`);
      failed = true;
    }
    rows.push([
      imageName(item.component, tag),
      megabytes(size),
      secondsText(item.readyMs),
      secondsText(item.readyCpuMs),
      stop ? secondsText(stop.ms) : "",
      notes.join(", "),
    ]);
  }
} catch (error) {
  console.error(`measure.ts: ${(error as Error).message}`);
  failed = true;
} finally {
  await fixture.close();
}

if (rows.length > 0) {
  const table = [["IMAGE", "SIZE", "READY", "CPU", "STOP", ""], ...rows];
  const widths = table[0]?.map((_, column) => Math.max(...table.map((row) => (row[column] ?? "").length))) ?? [];
  for (const row of table)
    console.log(
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    );
  console.log(
    "READY: from `podman run` to the first 200 of /q/health/ready (the gateway's: first snapshot received);\n" +
      "CPU: what the process had used by then (the start's cost whatever the load; READY near CPU means an idle machine).",
  );
}
process.exit(failed ? 1 : 0);
