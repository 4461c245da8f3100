/**
 * Atrium's Prometheus alerting rules, one group per chart: the one source of the plain rule files
 * (charts/observability/rules) and of each chart's PrometheusRule (see generated-files.ts).
 *
 * Targets are told apart by `job`, which a Prometheus Operator ServiceMonitor sets to the
 * Service's name: here the names a release called `atrium` gets (`atrium-gateway`,
 * `atrium-control-plane`); each chart's template puts its own Service's name in their place.
 */
import { stringify } from "yaml";

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: "critical" | "warning" };
  annotations: { summary: string; description: string; runbook: string };
}

export interface RuleGroup {
  name: string;
  rules: AlertRule[];
}

/** The job names of the plain files: the Services of a release named `atrium`. */
export const defaultJobs = { gateway: "atrium-gateway", "control-plane": "atrium-control-plane" } as const;

/** The tool-call objective the error-budget burn alerts measure against: 99.5 % of calls succeed. */
export const TOOL_CALL_OBJECTIVE = 0.995;

/**
 * Tool-call outcomes that spend the error budget: the gateway or the backend failed the caller.
 * Not counted: `ok`; `tool_error` (the backend answered, with an error result for these
 * arguments); `invalid` (the caller's arguments); `limited` (the plan's own limits, as meant);
 * `elicit` (the caller was asked for a credential).
 */
export const BUDGET_OUTCOMES = ["error", "timeout", "unavailable"] as const;

const budget = Number((1 - TOOL_CALL_OBJECTIVE).toFixed(6));

function errorRatio(window: string): string {
  const errors = `sum by (exposition) (rate(atrium_tool_calls_total{outcome=~"${BUDGET_OUTCOMES.join("|")}"}[${window}]))`;
  return `${errors} / sum by (exposition) (rate(atrium_tool_calls_total[${window}]))`;
}

/** Google SRE workbook's multiwindow, multi-burn-rate alert: both windows burn faster than `factor`. */
function burn(long: string, short: string, factor: number): string {
  const threshold = `${factor} * ${budget}`;
  return `(${errorRatio(long)} > ${threshold})\nand\n(${errorRatio(short)} > ${threshold})`;
}

const doc = (anchor: string) => `docs/observability.md#${anchor}`;

function gatewayRules(job: string): AlertRule[] {
  return [
    {
      alert: "AtriumGatewayDown",
      expr: `up{job="${job}"} == 0`,
      for: "5m",
      labels: { severity: "warning" },
      annotations: {
        summary: "A gateway's metrics endpoint has not answered for 5 minutes.",
        description:
          "Prometheus cannot scrape {{ $labels.instance }} (job {{ $labels.job }}): the gateway is down, restarting, or its management port is unreachable.",
        runbook: doc("atriumgatewaydown"),
      },
    },
    {
      alert: "AtriumGatewayNotReady",
      // A gateway reports its configuration's staleness only once the control plane has sent it one (ready).
      expr: `(up{job="${job}"} == 1) unless on (job, instance) atrium_gateway_configuration_staleness_seconds`,
      for: "5m",
      labels: { severity: "warning" },
      annotations: {
        summary: "A gateway runs but has had no configuration from the control plane for 5 minutes.",
        description:
          "{{ $labels.instance }} answers but is not ready: it has not registered with the control plane or opened its change stream.",
        runbook: doc("atriumgatewaynotready"),
      },
    },
    {
      alert: "AtriumGatewayConfigurationStale",
      expr: "atrium_gateway_configuration_staleness_seconds > 60",
      for: "5m",
      labels: { severity: "warning" },
      annotations: {
        summary: "A gateway has not heard from the control plane for over 6 minutes.",
        description:
          "{{ $labels.instance }} last had a change-stream message or heartbeat {{ $value | humanizeDuration }} ago: it serves its last configuration, and changes do not reach it.",
        runbook: doc("atriumgatewayconfigurationstale"),
      },
    },
    {
      alert: "AtriumChangeLagHigh",
      expr: "histogram_quantile(0.99, sum by (job, le) (rate(atrium_gateway_change_lag_seconds_bucket[10m]))) > 10",
      for: "10m",
      labels: { severity: "warning" },
      annotations: {
        summary: "Changes take over 10 seconds from commit to being applied on the gateways.",
        description:
          "The 99th percentile of the time from a change's commit to a gateway applying it is {{ $value | humanizeDuration }} (job {{ $labels.job }}).",
        runbook: doc("atriumchangelaghigh"),
      },
    },
    {
      alert: "AtriumToolCallErrorBudgetBurn",
      expr: burn("1h", "5m", 14.4),
      for: "2m",
      labels: { severity: "critical" },
      annotations: {
        summary: "Tool calls of an Exposition fail fast enough to spend 2 % of a 30-day error budget in an hour.",
        description:
          "{{ $labels.exposition }}: over 7.2 % of its tool calls failed (error, timeout or unavailable) in the past hour and in the past 5 minutes.",
        runbook: doc("atriumtoolcallerrorbudgetburn"),
      },
    },
    {
      alert: "AtriumToolCallErrorBudgetBurn",
      expr: burn("6h", "30m", 6),
      for: "15m",
      labels: { severity: "warning" },
      annotations: {
        summary: "Tool calls of an Exposition fail fast enough to spend 5 % of a 30-day error budget in 6 hours.",
        description:
          "{{ $labels.exposition }}: over 3 % of its tool calls failed (error, timeout or unavailable) in the past 6 hours and in the past 30 minutes.",
        runbook: doc("atriumtoolcallerrorbudgetburn"),
      },
    },
    {
      alert: "AtriumBackendCircuitOpen",
      expr: 'max by (exposition) (atrium_backend_circuit_state{state=~"open|half_open"}) == 1',
      for: "5m",
      labels: { severity: "warning" },
      annotations: {
        summary: "A backend's circuit breaker has been open for 5 minutes.",
        description:
          "Calls of {{ $labels.exposition }} are answered at once without calling its backend, which kept failing.",
        runbook: doc("atriumbackendcircuitopen"),
      },
    },
  ];
}

function controlPlaneRules(job: string): AlertRule[] {
  return [
    {
      alert: "AtriumControlPlaneDown",
      expr: `up{job="${job}"} == 0`,
      for: "5m",
      labels: { severity: "critical" },
      annotations: {
        summary: "A control plane's metrics endpoint has not answered for 5 minutes.",
        description:
          "Prometheus cannot scrape {{ $labels.instance }} (job {{ $labels.job }}). Gateways keep serving their last configuration, but nothing changes.",
        runbook: doc("atriumcontrolplanedown"),
      },
    },
    {
      alert: "AtriumNoLiveGateways",
      expr: "max(atrium_control_plane_gateways_live) == 0\nand\nmax(max_over_time(atrium_control_plane_gateways_live[1d])) > 0",
      for: "10m",
      labels: { severity: "critical" },
      annotations: {
        summary: "No gateway has advertised its health to the control plane for 10 minutes.",
        description:
          "The control plane had live gateways in the past day and now has none: every registered gateway is stale (ATRIUM_GATEWAY_STALE_SECONDS).",
        runbook: doc("atriumnolivegateways"),
      },
    },
  ];
}

function controllersRules(): AlertRule[] {
  const expiry = (days: number, severity: "critical" | "warning"): AlertRule => ({
    alert: "AtriumWebhookCertificateExpiry",
    expr: `atrium_webhook_certificate_expiry_timestamp_seconds - time() < ${days} * 86400`,
    labels: { severity },
    annotations: {
      summary: `The admission webhook's serving certificate expires within ${days} days.`,
      description:
        "The certificate {{ $labels.instance }} serves expires in {{ $value | humanizeDuration }}; once it lapses the API server's calls to the webhook fail.",
      runbook: doc("atriumwebhookcertificateexpiry"),
    },
  });
  return [expiry(14, "warning"), expiry(2, "critical")];
}

export type RuleChart = "gateway" | "control-plane" | "controllers";

/** The rule groups a chart ships, with the plain files' job names. */
export function ruleGroups(chart: RuleChart): RuleGroup[] {
  switch (chart) {
    case "gateway":
      return [{ name: "atrium-gateway", rules: gatewayRules(defaultJobs.gateway) }];
    case "control-plane":
      return [{ name: "atrium-control-plane", rules: controlPlaneRules(defaultJobs["control-plane"]) }];
    case "controllers":
      return [{ name: "atrium-controllers", rules: controllersRules() }];
  }
}

export const ruleCharts: readonly RuleChart[] = ["gateway", "control-plane", "controllers"];

/** A Prometheus rule file (`groups:`), as `rule_files` and `promtool check rules` read it. */
export function rulesFile(chart: RuleChart): string {
  const header = `# Atrium's alerts on the ${chart}. Generated from charts/src/observability/alerts.ts\n# by \`npm run generate -w @atrium/charts\`: edit them there. See docs/observability.md#dashboards-and-alerts.\n`;
  return header + stringify({ groups: ruleGroups(chart) }, { lineWidth: 0 });
}
