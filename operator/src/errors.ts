/**
 * Every error the operator raises, as coded constructors in one place. A reconcile turns them
 * into a resource's status: `state` says which (IN_PROGRESS while a dependency is missing,
 * ERROR otherwise) and `retry` whether the key goes back to the queue with backoff.
 */
import { ApiException } from "@kubernetes/client-node";

export type FailureState = "IN_PROGRESS" | "ERROR";

export class OperatorError extends Error {
  readonly code: string;
  readonly state: FailureState;
  /** Retried with backoff; a spec the schemas refuse waits for the next generation instead. */
  readonly retry: boolean;
  /** HTTP status of the refused request, for control-plane and Kubernetes API errors. */
  readonly status: number | undefined;

  constructor(code: string, message: string, options: { state?: FailureState; retry?: boolean; status?: number } = {}) {
    super(message);
    this.name = "OperatorError";
    this.code = code;
    this.state = options.state ?? "ERROR";
    this.retry = options.retry ?? true;
    this.status = options.status;
  }
}

export const errors = {
  invalidSetting: (name: string, reason: string) =>
    new OperatorError("INVALID_SETTING", `${name}: ${reason}`, { retry: false }),
  tokenUnavailable: (source: string, reason: string) =>
    new OperatorError("TOKEN_UNAVAILABLE", `control-plane API token unavailable (${source}): ${reason}`),
  controlPlaneUnreachable: (reason: string) =>
    new OperatorError("CONTROL_PLANE_UNREACHABLE", `control plane unreachable: ${reason}`),
  controlPlaneRejected: (method: string, path: string, status: number, code: string, detail: string) =>
    new OperatorError(
      "CONTROL_PLANE_REJECTED",
      `control plane refused ${method} ${path} (${status} ${code}): ${detail}`,
      {
        status,
      },
    ),
  /** A referenced object is not there yet (or not reconciled yet): the resource waits IN_PROGRESS. */
  waitingFor: (what: string[]) =>
    new OperatorError("DEPENDENCY_PENDING", `waiting for ${what.join(", ")}`, { state: "IN_PROGRESS" }),
  invalidSpec: (issues: string) => new OperatorError("INVALID_SPEC", `invalid spec: ${issues}`, { retry: false }),
  invalidReference: (message: string) => new OperatorError("INVALID_REFERENCE", message),
  kubeRequestFailed: (what: string, status: number, reason: string) =>
    new OperatorError("KUBE_REQUEST_FAILED", `Kubernetes API refused to ${what} (${status}): ${reason}`, { status }),
};

/** A readable one-liner for any thrown value (undici and Node errors keep their cause). */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error instanceof ApiException) return `${error.code} ${kubeMessage(error.body) ?? error.message.split("\n")[0]}`;
  const cause = (error as { cause?: unknown }).cause;
  const code = (error as { code?: unknown }).code;
  const base = typeof code === "string" && !error.message.includes(code) ? `${code} ${error.message}` : error.message;
  return cause instanceof Error ? `${base} (${describeError(cause)})` : base;
}

/** The `message` of a Kubernetes Status body (client-node hands it over as text or parsed). */
export function kubeMessage(body: unknown): string | undefined {
  let parsed = body;
  if (typeof body === "string") {
    try {
      parsed = JSON.parse(body);
    } catch {
      return body || undefined;
    }
  }
  const message = (parsed as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : undefined;
}
