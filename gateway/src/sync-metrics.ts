/**
 * The sync's own metrics, read at scrape time: how stale the configuration is, and the
 * Expositions received but not served, by reason (a closed set: registry.ts REFUSAL_REASONS).
 */
import { CollectedFamily } from "./metric-families.ts";
import { REFUSAL_REASONS, type Refusal } from "./registry.ts";

/** What the families read: the sync's staleness and skip counts, and the registry's current refusals. */
export interface SyncSource {
  stalenessSeconds(): number | undefined;
  readonly refusalCounts: ReadonlyMap<string, number>;
}
export interface RefusalSource {
  refusals(): Refusal[];
}

export function syncMetrics(sync: SyncSource, registry: RefusalSource): CollectedFamily[] {
  return [
    new CollectedFamily(
      {
        name: "atrium_gateway_configuration_staleness_seconds",
        type: "gauge",
        help: "Seconds since the control plane last confirmed this gateway's configuration (a change-stream message or heartbeat)",
        labelNames: [],
      },
      () => {
        const staleness = sync.stalenessSeconds();
        return staleness === undefined ? [] : [[[], Number(staleness.toFixed(3))]];
      },
    ),
    new CollectedFamily(
      {
        name: "atrium_gateway_expositions_refused",
        type: "gauge",
        help: "Expositions received but not served, by reason",
        labelNames: ["reason"],
      },
      () => {
        const current = new Map<string, number>();
        for (const refusal of registry.refusals()) current.set(refusal.reason, (current.get(refusal.reason) ?? 0) + 1);
        return REFUSAL_REASONS.map((reason) => [[reason], current.get(reason) ?? 0] as const);
      },
    ),
    new CollectedFamily(
      {
        name: "atrium_gateway_exposition_refusals_total",
        type: "counter",
        help: "Times an Exposition was skipped as received, by reason",
        labelNames: ["reason"],
      },
      () => REFUSAL_REASONS.map((reason) => [[reason], sync.refusalCounts.get(reason) ?? 0] as const),
    ),
  ];
}
