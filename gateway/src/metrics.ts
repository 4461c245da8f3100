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

  // Label children bound once per label combination: prom-client otherwise hashes the label
  // object on every update, a measurable share of a proxied call.
  private readonly children = new Map<string, { inc(): void } | { observe(value: number): void }>();

  private child<T>(key: string, make: () => T): T {
    let child = this.children.get(key) as T | undefined;
    if (!child) {
      child = make();
      this.children.set(key, child as never);
    }
    return child;
  }

  request(exposition: string, method: string, status: number, seconds: number): void {
    this.child(`r\0${exposition}\0${method}\0${status}`, () =>
      this.requests.labels(exposition, method, String(status)),
    ).inc();
    this.child(`l\0${exposition}\0${method}`, () => this.latency.labels(exposition, method)).observe(seconds);
  }

  toolCall(exposition: string, tool: string, outcome: string, seconds: number): void {
    this.child(`b\0${exposition}\0${tool}\0${outcome}`, () =>
      this.backendCalls.labels(exposition, tool, outcome),
    ).inc();
    this.child(`d\0${exposition}\0${tool}`, () => this.backendLatency.labels(exposition, tool)).observe(seconds);
  }
}
