/**
 * Prometheus metrics at /q/metrics: reconciles by kind and result, the resources it could not
 * apply by reason (an invalid spec, a record the control plane refused, …), their duration, the
 * work queue's depth, whether this replica leads, control-plane calls and watch restarts. Each
 * operator has its own registry, so several run side by side in one process (tests).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

export type ReconcileResult = "ready" | "in_progress" | "error" | "deleted" | "gone";

export interface QueueProbe {
  queueDepth(): number;
  queueDelayed(): number;
}

export class OperatorMetrics {
  readonly registry = new Registry();
  readonly reconciles = new Counter({
    name: "atrium_operator_reconciles_total",
    help: "Reconciles by kind and result (ready, in_progress, error, deleted, gone)",
    labelNames: ["kind", "result"] as const,
    registers: [this.registry],
  });
  readonly reconcileErrors = new Counter({
    name: "atrium_operator_reconcile_errors_total",
    help: "Reconciles that left a resource not applied (status ERROR), by kind and reason: the operator's error code (INVALID_SPEC, INVALID_REFERENCE, CONTROL_PLANE_REJECTED, CONTROL_PLANE_UNREACHABLE, TOKEN_UNAVAILABLE, KUBE_REQUEST_FAILED, …) or unexpected",
    labelNames: ["kind", "code"] as const,
    registers: [this.registry],
  });
  readonly reconcileDuration = new Histogram({
    name: "atrium_operator_reconcile_duration_seconds",
    help: "Time one reconcile took, control-plane and Kubernetes calls included",
    labelNames: ["kind"] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly queueDepth: Gauge;
  readonly queueDelayed: Gauge;
  readonly leader = new Gauge({
    name: "atrium_operator_leader",
    help: "1 while this replica holds the leader Lease and reconciles, else 0",
    registers: [this.registry],
  });
  readonly controlPlaneRequests = new Counter({
    name: "atrium_operator_control_plane_requests_total",
    help: "Requests to the control plane by method and HTTP status",
    labelNames: ["method", "status"] as const,
    registers: [this.registry],
  });
  readonly watchRestarts = new Counter({
    name: "atrium_operator_watch_restarts_total",
    help: "Watches restarted after an error, by kind",
    labelNames: ["kind"] as const,
    registers: [this.registry],
  });

  constructor(queue: QueueProbe) {
    this.queueDepth = new Gauge({
      name: "atrium_operator_queue_depth",
      help: "Keys waiting for a reconcile (not counting those delayed for a retry)",
      registers: [this.registry],
      collect() {
        this.set(queue.queueDepth());
      },
    });
    this.queueDelayed = new Gauge({
      name: "atrium_operator_queue_delayed",
      help: "Keys waiting for their retry delay to pass",
      registers: [this.registry],
      collect() {
        this.set(queue.queueDelayed());
      },
    });
  }

  /** Adds the process metrics (memory, CPU, event loop); once per process, in main. */
  collectProcessMetrics(): void {
    collectDefaultMetrics({ register: this.registry });
  }
}
