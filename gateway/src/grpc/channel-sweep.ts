/**
 * Closes the gRPC channels no served Exposition calls any more: once after each configuration
 * change (a snapshot or delta may replace thousands of Expositions, and is swept once, when it is
 * applied), a channel whose backend no Exposition's plan names is closed; its calls in flight finish.
 */
import type { ExpositionRegistry } from "../registry.ts";
import { type GrpcChannels, isGrpcOrigin } from "./channels.ts";

export function closeUnusedChannels(registry: ExpositionRegistry, channels: GrpcChannels): void {
  let pending = false;
  registry.observe(() => {
    if (pending) return;
    pending = true;
    // The registry tells of each Exposition in turn, within one apply: sweep after the last.
    queueMicrotask(() => {
      pending = false;
      const used = new Set<string>();
      for (const served of registry.served()) if (isGrpcOrigin(served.backend.origin)) used.add(served.backend.origin);
      channels.closeUnused(used);
    });
  });
}
