/** What a Service's contract is, in a word or two: `OpenAPI 3.1.0`, `GraphQL` or `gRPC`. */
export function contractLabel(service: { kind?: "openapi" | "graphql" | "grpc"; openapiVersion?: string }): string {
  if (service.kind === "graphql") return "GraphQL";
  if (service.kind === "grpc") return "gRPC";
  return `OpenAPI ${service.openapiVersion ?? ""}`.trim();
}
