/**
 * A gRPC backend's answer as a tool result.
 * - `OK`, unary: the response message as proto3 JSON, both as `structuredContent` and as its text;
 * - `OK`, server streaming: `{ messages: [...], truncated }`, the messages in the order received,
 *   `truncated` true when the stream was cut at the plan's limit (grpc.maxStreamMessages) or at
 *   the gateway's read limit;
 * - any other status: `isError`, the text `<CODE_NAME>: <the status message>` (e.g.
 *   `NOT_FOUND: no pet 42`), no `structuredContent`. DEADLINE_EXCEEDED never gets here: it is the
 *   gateway's 504 result, like an HTTP backend's timeout (call.ts).
 * As for a JSON answer over HTTP (tools/result.ts): text past `maxBytes` is cut and then carries
 * no `structuredContent`; JSON nested deeper than MAX_ANSWER_DEPTH is not passed on; the answer's
 * status (the code's HTTP counterpart) is in `_meta["dev.atrium/backendStatus"]` and the gRPC
 * code's name in `_meta["dev.atrium/grpcStatus"]`, with forwarded headers as for HTTP.
 */
import { nestsDeeperThan } from "@atrium/contract/json-depth";
import type { CallToolResult } from "../tools/mcp.ts";
import {
  BACKEND_STATUS_META_KEY,
  type BackendResponse,
  FORWARDED_HEADERS_META_KEY,
  forwardedHeaders,
  MAX_ANSWER_DEPTH,
  type ResultOptions,
  utf8Prefix,
} from "../tools/result.ts";
import { isPlainObject } from "../tools/schema.ts";
import type { MethodCodec } from "./codec.ts";
import { GRPC_OK, grpcCodeName } from "./status.ts";

export const GRPC_STATUS_META_KEY = "dev.atrium/grpcStatus";

export function grpcResult(
  response: BackendResponse,
  codec: MethodCodec,
  streaming: boolean,
  options: ResultOptions,
): CallToolResult {
  const answer = response.grpc;
  const result: CallToolResult = answer
    ? answer.code === GRPC_OK
      ? decoded(answer.messages, answer.truncated, codec, streaming, options.maxBytes)
      : { content: [{ type: "text", text: `${grpcCodeName(answer.code)}: ${answer.details}` }], isError: true }
    : // A response that came over HTTP instead: the plan's endpoint is not a gRPC one.
      { content: [{ type: "text", text: "The backend did not answer as a gRPC server" }], isError: true };
  const meta: Record<string, unknown> = { [BACKEND_STATUS_META_KEY]: response.status };
  if (answer) meta[GRPC_STATUS_META_KEY] = grpcCodeName(answer.code);
  const forwarded = forwardedHeaders(response.headers, options.forwardHeaders);
  if (forwarded) meta[FORWARDED_HEADERS_META_KEY] = forwarded;
  result._meta = meta;
  return result;
}

function decoded(
  messages: Uint8Array[],
  truncated: boolean,
  codec: MethodCodec,
  streaming: boolean,
  maxBytes: number,
): CallToolResult {
  let value: unknown;
  try {
    if (streaming) value = { messages: messages.map((message) => codec.decode(message)), truncated };
    else {
      const [message] = messages;
      if (!message) return failure("The backend answered OK without a response message");
      value = codec.decode(message);
    }
  } catch (error) {
    return failure(`The backend's answer is not the method's response message: ${(error as Error).message}`);
  }
  const text = JSON.stringify(value);
  if (nestsDeeperThan(text, MAX_ANSWER_DEPTH))
    return failure(`The backend's answer nests messages deeper than ${MAX_ANSWER_DEPTH} levels: not passed on.`);
  const size = Buffer.byteLength(text);
  if (size <= maxBytes) {
    // A well-known type's JSON may be no object (a Timestamp is a string): wrapped, as for an HTTP answer.
    return { content: [{ type: "text", text }], structuredContent: isPlainObject(value) ? value : { result: value } };
  }
  const shown = utf8Prefix(Buffer.from(text), maxBytes);
  return {
    content: [
      { type: "text", text: `${shown.toString()}\n…[truncated: ${size} bytes, showing the first ${shown.length}]` },
    ],
  };
}

function failure(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
