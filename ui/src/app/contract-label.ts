/** What a Service's contract is, in a word or two: `OpenAPI 3.1.0`, or `GraphQL`. */
export function contractLabel(service: { kind?: "openapi" | "graphql"; openapiVersion?: string }): string {
  return service.kind === "graphql" ? "GraphQL" : `OpenAPI ${service.openapiVersion ?? ""}`.trim();
}
