/**
 * What a ConfigurationPlan may say about a gRPC backend (fail closed: a setting nothing would
 * apply is refused): `grpc` settings only on a plan whose Service is of kind grpc, and on such a
 * plan no backend secret in the query string, which a gRPC call has not.
 */
import type { ServiceKind } from "@atrium/crds";
import { type ApiError, errors } from "../errors.ts";

export function grpcPlanProblem(
  kind: ServiceKind,
  plan: { grpc?: unknown; backendSecret?: { in?: string } },
  serviceId: string,
): ApiError | undefined {
  if (plan.grpc !== undefined && kind !== "grpc") {
    const message = `Service '${serviceId}' is of kind ${kind}: only a plan on a grpc Service takes grpc settings, remove them`;
    return errors.unprocessable("GRPC_SETTINGS_NOT_APPLICABLE", `body.grpc: ${message}`, [
      { field: "body.grpc", message },
    ]);
  }
  if (kind === "grpc" && plan.backendSecret?.in === "query") {
    const message =
      "a gRPC call has no query string: the backend secret of a plan on a grpc Service goes in a header (sent as metadata), in: header";
    return errors.unprocessable("BACKEND_SECRET_PLACEMENT", `body.backendSecret.in: ${message}`, [
      { field: "body.backendSecret.in", message },
    ]);
  }
  return undefined;
}
