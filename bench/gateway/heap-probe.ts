/**
 * Preloaded into a scale-check gateway (`node --expose-gc --import ./bench/gateway/heap-probe.ts
 * gateway/src/main.ts`): on SIGUSR2 it collects garbage and prints one line
 * `heap-probe {...}` with RSS, live heap and V8's young-generation size, so the report can
 * tell memory the Expositions hold from heap V8 merely reserved. It adds nothing else.
 */
import { getHeapSpaceStatistics } from "node:v8";

process.on("SIGUSR2", () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const usage = process.memoryUsage();
  const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === "new_space");
  const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
  console.log(
    `heap-probe ${JSON.stringify({
      rssMb: mb(usage.rss),
      heapUsedMb: mb(usage.heapUsed),
      heapTotalMb: mb(usage.heapTotal),
      newSpaceMb: mb(newSpace?.space_size ?? 0),
      externalMb: mb(usage.external),
      collected: gc !== undefined,
    })}`,
  );
});
