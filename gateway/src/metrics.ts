/**
 * Prometheus metrics at /q/metrics: MCP requests and their latency per exposition and method,
 * and backend outcomes per exposition and tool.
 */
import { Counter, Histogram, Registry } from "prom-client";

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: "atrium_mcp_requests_total",
    help: "MCP requests by exposition, JSON-RPC method and HTTP status",
    labelNames: ["exposition", "method", "status"] as const,
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: "atrium_mcp_request_duration_seconds",
    help: "Time to answer an MCP request, backend call included",
    labelNames: ["exposition", "method"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly backendCalls = new Counter({
    name: "atrium_backend_responses_total",
    help: "Tool calls by exposition, tool and backend outcome (HTTP status, timeout, error, invalid)",
    labelNames: ["exposition", "tool", "outcome"] as const,
    registers: [this.registry],
  });
  readonly backendLatency = new Histogram({
    name: "atrium_backend_duration_seconds",
    help: "Time a tool call spent on its backend",
    labelNames: ["exposition", "tool"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
}
