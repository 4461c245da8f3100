/**
 * Prometheus metrics at /q/metrics: admission reviews by kind, operation and verdict, malformed
 * reviews, and the serving certificate (reloads and expiry, to alert before it lapses).
 */
import { Counter, Gauge, Registry } from "prom-client";

export class WebhookMetrics {
  readonly registry = new Registry();
  readonly reviews = new Counter({
    name: "atrium_webhook_reviews_total",
    help: "Admission reviews answered, by resource kind, operation and whether the request was allowed",
    labelNames: ["kind", "operation", "allowed"] as const,
    registers: [this.registry],
  });
  readonly malformedReviews = new Counter({
    name: "atrium_webhook_malformed_reviews_total",
    help: "Requests to /validate refused with HTTP 400 because they were not an AdmissionReview v1",
    registers: [this.registry],
  });
  readonly certificateReloads = new Counter({
    name: "atrium_webhook_certificate_reloads_total",
    help: "Changes of tls.crt / tls.key seen, by outcome: loaded, or rejected (the previous pair is kept)",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });
  readonly certificateExpiry = new Gauge({
    name: "atrium_webhook_certificate_expiry_timestamp_seconds",
    help: "notAfter of the serving certificate in use, as a Unix timestamp",
    registers: [this.registry],
  });
}
