/**
 * The sync's own metrics, rendered at scrape time: how stale the configuration is, and the
 * Expositions received but not served, by reason (a closed set: registry.ts REFUSAL_REASONS).
 */
import { type ExpositionRegistry, REFUSAL_REASONS } from "./registry.ts";
import type { ControlPlaneSync } from "./sync.ts";

export function syncMetrics(sync: ControlPlaneSync, registry: ExpositionRegistry): (out: string[]) => void {
  return (out) => {
    out.push(
      "# HELP atrium_gateway_configuration_staleness_seconds Seconds since the control plane last confirmed this gateway's configuration (a change-stream message or heartbeat)",
      "# TYPE atrium_gateway_configuration_staleness_seconds gauge",
    );
    const staleness = sync.stalenessSeconds();
    if (staleness !== undefined) out.push(`atrium_gateway_configuration_staleness_seconds ${staleness.toFixed(3)}`);
    const current = new Map<string, number>();
    for (const refusal of registry.refusals()) current.set(refusal.reason, (current.get(refusal.reason) ?? 0) + 1);
    out.push(
      "# HELP atrium_gateway_expositions_refused Expositions received but not served, by reason",
      "# TYPE atrium_gateway_expositions_refused gauge",
    );
    for (const reason of REFUSAL_REASONS) {
      out.push(`atrium_gateway_expositions_refused{reason="${reason}"} ${current.get(reason) ?? 0}`);
    }
    out.push(
      "# HELP atrium_gateway_exposition_refusals_total Times an Exposition was skipped as received, by reason",
      "# TYPE atrium_gateway_exposition_refusals_total counter",
    );
    for (const reason of REFUSAL_REASONS) {
      out.push(`atrium_gateway_exposition_refusals_total{reason="${reason}"} ${sync.refusalCounts.get(reason) ?? 0}`);
    }
  };
}
