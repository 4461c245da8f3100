/**
 * Every error the webhook raises, as coded constructors in one place. An admission *denial* is
 * not an error (it is a normal AdmissionReview answer); these are the cases where no answer can
 * be given: a malformed review, unusable TLS files, a bad setting.
 */
export class WebhookError extends Error {
  /** HTTP status when the error answers a request. */
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = "WebhookError";
    this.status = status;
    this.code = code;
  }

  toBody() {
    return { code: this.code, message: this.message };
  }
}

export const errors = {
  malformedReview: (reason: string) =>
    new WebhookError(400, "MALFORMED_REVIEW", `Not an admission.k8s.io/v1 AdmissionReview request: ${reason}`),
  unsupportedReviewVersion: (apiVersion: unknown) =>
    new WebhookError(
      400,
      "UNSUPPORTED_REVIEW_VERSION",
      `AdmissionReview ${JSON.stringify(apiVersion)} is not supported: set admissionReviewVersions: ["v1"] ` +
        "in the ValidatingWebhookConfiguration",
    ),
  badRequest: (message: string) => new WebhookError(400, "BAD_REQUEST", message),
  routeNotFound: (method: string, url: string) =>
    new WebhookError(404, "ROUTE_NOT_FOUND", `No route ${method} ${url}: admission reviews go to POST /validate`),
  tlsUnreadable: (dir: string, reason: string) =>
    new WebhookError(
      500,
      "TLS_UNREADABLE",
      `Cannot read tls.crt and tls.key in ${dir} (ATRIUM_WEBHOOK_TLS_DIR): ${reason}`,
    ),
  tlsInvalid: (dir: string, reason: string) =>
    new WebhookError(500, "TLS_INVALID", `tls.crt and tls.key in ${dir} are not a usable pair: ${reason}`),
  invalidSetting: (name: string, reason: string) => new WebhookError(500, "INVALID_SETTING", `${name}: ${reason}`),
  internal: () => new WebhookError(500, "INTERNAL", "Unexpected error; the webhook's log has the details"),
};
