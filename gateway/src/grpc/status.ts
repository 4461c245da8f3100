/**
 * gRPC status codes: their names (what a tool error says) and the HTTP status each is reported
 * as where the gateway speaks HTTP statuses (metrics, `_meta["dev.atrium/backendStatus"]`, the
 * 401 that renews a client-credentials token or forgets an elicited credential). The mapping is
 * the one `google.rpc.Code` documents (and grpc-gateway uses).
 */

const codes: readonly [name: string, http: number][] = [
  ["OK", 200],
  ["CANCELLED", 499],
  ["UNKNOWN", 500],
  ["INVALID_ARGUMENT", 400],
  ["DEADLINE_EXCEEDED", 504],
  ["NOT_FOUND", 404],
  ["ALREADY_EXISTS", 409],
  ["PERMISSION_DENIED", 403],
  ["RESOURCE_EXHAUSTED", 429],
  ["FAILED_PRECONDITION", 400],
  ["ABORTED", 409],
  ["OUT_OF_RANGE", 400],
  ["UNIMPLEMENTED", 501],
  ["INTERNAL", 500],
  ["UNAVAILABLE", 503],
  ["DATA_LOSS", 500],
  ["UNAUTHENTICATED", 401],
];

export const GRPC_OK = 0;
export const GRPC_CANCELLED = 1;
export const GRPC_DEADLINE_EXCEEDED = 4;
export const GRPC_UNIMPLEMENTED = 12;
export const GRPC_UNAVAILABLE = 14;

/** `NOT_FOUND` for 5; a code outside the standard ones (a server may send any number) reads `CODE_<n>`. */
export function grpcCodeName(code: number): string {
  return codes[code]?.[0] ?? `CODE_${code}`;
}

/** The HTTP status a gRPC status code stands for; 500 for a code outside the standard ones. */
export function httpStatusOfGrpc(code: number): number {
  return codes[code]?.[1] ?? 500;
}
