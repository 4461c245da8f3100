/**
 * Why a sync attempt failed, so the log and readiness say what happened: an unreachable control
 * plane is only one of the reasons, and a refused token needs a person to act.
 */

export type FailureKind = "unreachable" | "refused" | "credential refused" | "unreadable message";

export class SyncFailure extends Error {
  readonly kind: FailureKind;
  constructor(kind: FailureKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

/** What the gateway logs for each kind (a refused token at error level, the others as warnings). */
export const failureLogs: Record<FailureKind, string> = {
  unreachable: "control plane unreachable; serving the last configuration",
  refused: "the control plane refused this gateway; serving the last configuration",
  "credential refused":
    "the control plane refused this gateway's token: the change stream is stopped, the last configuration is served; " +
    "give the gateway a valid token (ATRIUM_CONTROL_PLANE_TOKEN) and restart it",
  "unreadable message": "the control plane sent a change-stream message this gateway cannot read; reconnecting",
};

export interface SyncLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}
