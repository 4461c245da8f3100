/**
 * Atrium's Grafana dashboard: the fleet of gateways, the tools they serve, the control plane and
 * the controllers. The one source of charts/observability/atrium-dashboard.json and of the
 * control-plane chart's dashboard ConfigMap (see generated-files.ts).
 *
 * Queries select Atrium's own metric names only, so they need no job label; `$exposition` narrows
 * the tool panels, `$__rate_interval` is Grafana's rate window.
 */

export const DASHBOARD_UID = "atrium-overview";

type Unit = "reqps" | "s" | "percentunit" | "short" | "Bps" | "ops" | "dtdurations";

interface Query {
  expr: string;
  legend: string;
}

interface Panel {
  title: string;
  description: string;
  unit: Unit;
  queries: Query[];
  /** Timeseries unless said: a stat shows the last value. */
  kind?: "timeseries" | "stat";
}

interface Row {
  title: string;
  panels: Panel[];
}

const q = (expr: string, legend: string): Query => ({ expr, legend });
const expo = 'exposition=~"$exposition"';
const quantile = (p: number, metric: string, by: string, filter = "") =>
  `histogram_quantile(${p}, sum by (${by}, le) (rate(${metric}_bucket${filter ? `{${filter}}` : ""}[$__rate_interval])))`;

const rows: Row[] = [
  {
    title: "Fleet",
    panels: [
      {
        title: "Ready gateways",
        description: "Gateways that have their configuration from the control plane (they report its staleness).",
        unit: "short",
        kind: "stat",
        queries: [q("count(atrium_gateway_configuration_staleness_seconds)", "ready")],
      },
      {
        title: "Live gateways (control plane's view)",
        description: "Registered gateways that advertised health within ATRIUM_GATEWAY_STALE_SECONDS.",
        unit: "short",
        kind: "stat",
        queries: [q("max(atrium_control_plane_gateways_live)", "live")],
      },
      {
        title: "Configuration staleness",
        description: "Seconds since each gateway last heard from the control plane (message or heartbeat).",
        unit: "s",
        queries: [q("atrium_gateway_configuration_staleness_seconds", "{{instance}}")],
      },
      {
        title: "Change lag (commit → applied)",
        description: "Time from a change's commit in the control plane to a gateway applying it.",
        unit: "s",
        queries: [
          q(quantile(0.5, "atrium_gateway_change_lag_seconds", "job"), "p50"),
          q(quantile(0.99, "atrium_gateway_change_lag_seconds", "job"), "p99"),
        ],
      },
      {
        title: "Expositions not served",
        description: "Expositions the gateways received but do not serve, by reason (the most any gateway has).",
        unit: "short",
        queries: [q("max by (reason) (atrium_gateway_expositions_refused)", "{{reason}}")],
      },
      {
        title: "MCP requests by method",
        description: "MCP requests per second, by JSON-RPC method.",
        unit: "reqps",
        queries: [q(`sum by (method) (rate(atrium_mcp_requests_total{${expo}}[$__rate_interval]))`, "{{method}}")],
      },
      {
        title: "MCP request latency p99",
        description: "99th percentile of the time to answer an MCP request, backend call included, by method.",
        unit: "s",
        queries: [q(quantile(0.99, "atrium_mcp_request_duration_seconds", "method", expo), "{{method}}")],
      },
    ],
  },
  {
    title: "Tools",
    panels: [
      {
        title: "Tool calls by outcome",
        description: "Tool calls per second by outcome.",
        unit: "ops",
        queries: [q(`sum by (outcome) (rate(atrium_tool_calls_total{${expo}}[$__rate_interval]))`, "{{outcome}}")],
      },
      {
        title: "Failed tool calls by Exposition",
        description:
          "Share of tool calls that failed (error, timeout, unavailable): what the burn-rate alerts measure.",
        unit: "percentunit",
        queries: [
          q(
            `sum by (exposition) (rate(atrium_tool_calls_total{${expo},outcome=~"error|timeout|unavailable"}[$__rate_interval])) / sum by (exposition) (rate(atrium_tool_calls_total{${expo}}[$__rate_interval]))`,
            "{{exposition}}",
          ),
        ],
      },
      {
        title: "Tool call duration p99",
        description: "99th percentile of a tool call's duration, by Exposition and tool.",
        unit: "s",
        queries: [
          q(quantile(0.99, "atrium_tool_call_duration_seconds", "exposition, tool", expo), "{{exposition}} {{tool}}"),
        ],
      },
      {
        title: "Backend duration p99",
        description: "99th percentile of the time a tool call spent on its backend, by Exposition and tool.",
        unit: "s",
        queries: [
          q(quantile(0.99, "atrium_backend_duration_seconds", "exposition, tool", expo), "{{exposition}} {{tool}}"),
        ],
      },
      {
        title: "Backend error answers by status",
        description:
          "Backend answers with an HTTP error status per second, by status: a tool call's tool_error outcome does not tell 4xx from 5xx.",
        unit: "ops",
        queries: [
          q(
            `sum by (outcome) (rate(atrium_backend_responses_total{${expo},outcome=~"4..|5.."}[$__rate_interval]))`,
            "{{outcome}}",
          ),
        ],
      },
      {
        title: "Result bytes",
        description: "Bytes of tool results sent to clients per second, by Exposition and tool.",
        unit: "Bps",
        queries: [
          q(
            `sum by (exposition, tool) (rate(atrium_tool_result_bytes_total{${expo}}[$__rate_interval]))`,
            "{{exposition}} {{tool}}",
          ),
        ],
      },
      {
        title: "Circuit breakers not closed",
        description: "Expositions whose backend circuit breaker is open or half-open on some gateway.",
        unit: "short",
        queries: [
          q(
            `max by (exposition, state) (atrium_backend_circuit_state{${expo},state=~"open|half_open"}) == 1`,
            "{{exposition}} {{state}}",
          ),
        ],
      },
      {
        title: "Calls refused by limits",
        description: "Calls the plans' limits refused per second, by scope and kind.",
        unit: "ops",
        queries: [
          q(`sum by (scope, kind) (rate(atrium_limited_calls_total{${expo}}[$__rate_interval]))`, "{{scope}} {{kind}}"),
        ],
      },
      {
        title: "Auth decisions",
        description: "Authentication decisions per second, by outcome and reason.",
        unit: "ops",
        queries: [
          q(
            `sum by (outcome, reason) (rate(atrium_auth_decisions_total{${expo}}[$__rate_interval]))`,
            "{{outcome}} {{reason}}",
          ),
        ],
      },
    ],
  },
  {
    title: "Control plane",
    panels: [
      {
        title: "API requests by status",
        description: "REST API requests per second by status class.",
        unit: "reqps",
        queries: [
          q("sum by (status) (rate(atrium_control_plane_http_requests_total[$__rate_interval]))", "{{status}}"),
        ],
      },
      {
        title: "API latency p99 by route",
        description:
          "99th percentile of the time to answer, by route (change streams left out: their duration is their life).",
        unit: "s",
        queries: [
          q(
            quantile(
              0.99,
              "atrium_control_plane_http_request_duration_seconds",
              "route",
              'route!~".*/stream|unmatched"',
            ),
            "{{route}}",
          ),
        ],
      },
      {
        title: "Change streams",
        description: "Change streams open (one per connected gateway), and events sent per second by kind.",
        unit: "short",
        queries: [
          q("sum(atrium_control_plane_change_streams_open)", "open"),
          q("sum by (event) (rate(atrium_control_plane_change_stream_events_total[$__rate_interval]))", "{{event}} /s"),
        ],
      },
      {
        title: "Failed logins",
        description: "Failed logins per second, by reason.",
        unit: "ops",
        queries: [
          q("sum by (reason) (rate(atrium_control_plane_login_failures_total[$__rate_interval]))", "{{reason}}"),
        ],
      },
      {
        title: "OpenAPI imports",
        description: "OpenAPI imports per second, by outcome.",
        unit: "ops",
        queries: [
          q(
            "sum by (outcome) (rate(atrium_control_plane_openapi_import_duration_seconds_count[$__rate_interval]))",
            "{{outcome}}",
          ),
        ],
      },
    ],
  },
  {
    title: "Controllers",
    panels: [
      {
        title: "Reconciles by result",
        description: "Operator reconciles per second, by kind and result.",
        unit: "ops",
        queries: [
          q("sum by (kind, result) (rate(atrium_operator_reconciles_total[$__rate_interval]))", "{{kind}} {{result}}"),
        ],
      },
      {
        title: "Operator work queue",
        description: "Keys waiting for a reconcile, and keys waiting for their retry delay.",
        unit: "short",
        queries: [q("max(atrium_operator_queue_depth)", "waiting"), q("max(atrium_operator_queue_delayed)", "delayed")],
      },
      {
        title: "Admission reviews",
        description: "Admission reviews per second, by kind and whether they were allowed.",
        unit: "ops",
        queries: [
          q(
            "sum by (kind, allowed) (rate(atrium_webhook_reviews_total[$__rate_interval]))",
            "{{kind}} allowed={{allowed}}",
          ),
        ],
      },
      {
        title: "Webhook certificate expires in",
        description: "Time left before the admission webhook's serving certificate lapses.",
        unit: "dtdurations",
        kind: "stat",
        queries: [q("min(atrium_webhook_certificate_expiry_timestamp_seconds) - time()", "expires in")],
      },
    ],
  },
];

const DATASOURCE = { type: "prometheus", uid: "${datasource}" };

function panelJson(panel: Panel, id: number, x: number, y: number) {
  const stat = panel.kind === "stat";
  return {
    id,
    type: stat ? "stat" : "timeseries",
    title: panel.title,
    description: panel.description,
    datasource: DATASOURCE,
    gridPos: { h: stat ? 4 : 8, w: stat ? 6 : 12, x, y },
    fieldConfig: { defaults: { unit: panel.unit }, overrides: [] },
    options: stat
      ? { reduceOptions: { calcs: ["lastNotNull"] } }
      : { legend: { displayMode: "list", placement: "bottom" } },
    targets: panel.queries.map((query, index) => ({
      refId: String.fromCharCode(65 + index),
      datasource: DATASOURCE,
      expr: query.expr,
      legendFormat: query.legend,
    })),
  };
}

/** The dashboard's JSON model (Grafana 10 and later). */
export function dashboard() {
  const panels: unknown[] = [];
  let id = 1;
  let y = 0;
  for (const row of rows) {
    panels.push({ id: id++, type: "row", title: row.title, collapsed: false, gridPos: { h: 1, w: 24, x: 0, y } });
    y += 1;
    // Stats first, four to a line; then graphs two to a line.
    let x = 0;
    let lineHeight = 0;
    for (const panel of row.panels) {
      const json = panelJson(panel, id++, x, y);
      if (x + json.gridPos.w > 24) {
        y += lineHeight;
        x = 0;
        lineHeight = 0;
        json.gridPos.x = 0;
        json.gridPos.y = y;
      }
      panels.push(json);
      x += json.gridPos.w;
      lineHeight = Math.max(lineHeight, json.gridPos.h);
    }
    y += lineHeight;
  }
  return {
    uid: DASHBOARD_UID,
    title: "Atrium",
    description: "Atrium's gateways, tools, control plane and controllers. Generated from charts/src/observability.",
    tags: ["atrium", "mcp"],
    editable: true,
    schemaVersion: 39,
    time: { from: "now-6h", to: "now" },
    refresh: "30s",
    templating: {
      list: [
        { name: "datasource", label: "Data source", type: "datasource", query: "prometheus" },
        {
          name: "exposition",
          label: "Exposition",
          type: "query",
          datasource: DATASOURCE,
          query: { query: "label_values(atrium_mcp_requests_total, exposition)", refId: "expositions" },
          definition: "label_values(atrium_mcp_requests_total, exposition)",
          refresh: 2,
          includeAll: true,
          multi: true,
          allValue: ".*",
          current: { text: "All", value: "$__all" },
        },
      ],
    },
    panels,
  };
}

/** Every PromQL query of the dashboard (panels and variables), as written, for the tests. */
export function dashboardQueries(): string[] {
  return [
    ...rows.flatMap((row) => row.panels.flatMap((panel) => panel.queries.map((query) => query.expr))),
    "atrium_mcp_requests_total",
  ];
}
