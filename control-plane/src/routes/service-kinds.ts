/**
 * Which kinds of Service the gateways call, and the URL schemes of a ConfigurationPlan's
 * `backendEndpoint` each is called at: an OpenAPI API and a GraphQL endpoint over http(s), a gRPC
 * server at grpc:// (h2c) or grpcs:// (TLS).
 * A kind missing here is imported but never published (fail closed): a plan on it is refused
 * with SERVICE_KIND_NOT_PUBLISHABLE, and a Service that plans use cannot be re-imported as it.
 */
import type { ServiceKind } from "@atrium/crds";
import { type ApiError, errors } from "../errors.ts";

export const endpointSchemes: Partial<Record<ServiceKind, readonly string[]>> = {
  openapi: ["http:", "https:"],
  graphql: ["http:", "https:"],
  grpc: ["grpc:", "grpcs:"],
};

/**
 * Why a plan whose backend is `endpoint` cannot publish a Service of `kind` (`reason` says which
 * plan or Service), or undefined when it can.
 */
export function unfitEndpoint(
  kind: ServiceKind,
  endpoint: string,
  field: string,
  reason: string,
): ApiError | undefined {
  const schemes = endpointSchemes[kind];
  if (!schemes) return errors.kindNotPublishable(kind, field, reason);
  const scheme = URL.canParse(endpoint) ? new URL(endpoint).protocol : "";
  if (schemes.includes(scheme)) return undefined;
  return errors.endpointSchemeMismatch(kind, schemes, scheme, field, reason);
}
