/**
 * @atrium/webhook — the admission webhook for atrium.dev resources: the AdmissionReview v1
 * handling of @atrium/crds' `validateResource`, and the HTTPS server (in-process start for
 * tests and tools).
 */
export {
  ADMISSION_API_VERSION,
  type AdmissionRequest,
  type AdmissionResponse,
  type AdmissionReviewAnswer,
  DENIED_STATUS_CODE,
  type Reviewed,
  reviewAdmission,
} from "./admission.ts";
export { configFromEnv, DEFAULT_TLS_DIR, type WebhookConfig } from "./config.ts";
export { errors, WebhookError } from "./errors.ts";
export { WebhookMetrics } from "./metrics.ts";
export { buildWebhookServer, startWebhook, type Webhook, type WebhookServer } from "./server.ts";
export { CERT_FILE, checkTlsPair, KEY_FILE, readTlsPair, type TlsPair, type TlsWatch, watchTlsPair } from "./tls.ts";
