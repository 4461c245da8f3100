/**
 * The shapes a gRPC call adds to a tool's backend request and to the backend's answer
 * (tools/request.ts `BackendRequest.grpc`, tools/result.ts `BackendResponse.grpc`): the only
 * places the shared HTTP pipeline learns of gRPC.
 */

/** A tool's gRPC call, as its BackendRequest carries it (its `path` is `/<service>/<method>`). */
export type GrpcRequest = {
  streaming: "unary" | "server";
  /** The request message, serialized. */
  message: Uint8Array;
  /** Server streaming: the most messages collected. */
  maxMessages: number;
};

/** What a gRPC backend answered; the tool decodes the messages (grpc/result.ts). */
export type GrpcAnswer = {
  /** The call's status code (0 is OK) and its message. */
  code: number;
  details: string;
  /** The response messages, serialized: one for a unary call that succeeded. */
  messages: Uint8Array[];
  /** A server stream was cancelled once it went past the limit: there were more messages. */
  truncated: boolean;
};
