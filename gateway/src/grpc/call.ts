/**
 * One gRPC call on a pooled client: the already-encoded request message, the metadata (the plan's
 * headers and backend secret, backend.ts), and a deadline for the whole call. Messages travel as
 * bytes (identity serializers): encoding and decoding is the tool's (codec.ts).
 *
 * The outcome reads like an HTTP backend's (backend.ts): an answer (any status the backend sent,
 * with its code's HTTP counterpart as `status`), a timeout (`DEADLINE_EXCEEDED`), or a failure to
 * reach the backend (`UNAVAILABLE` before any response header arrived: no connection was made).
 *
 * A server-streaming call collects messages until the stream ends; one message past `maxMessages`,
 * or past `maxBytes` in all, cancels it and marks the answer truncated.
 *
 * A unary call is made on the client's channel directly (`Channel.createCall`), as
 * `Client.makeUnaryRequest` makes it without interceptors, and ends as that ends (OK without a
 * message is `UNIMPLEMENTED`): it skips what the gateway never reads, above all the caller's
 * stack grpc-js captures on every call for a failed call's error, which through the gateway's deep
 * stack cost more than a tenth of a call's CPU (bench/gateway, issue 21).
 */
import { type Client, Metadata, type StatusObject } from "@grpc/grpc-js";
import type { BackendResponse } from "../tools/result.ts";
import type { GrpcAnswer, GrpcRequest } from "./answer.ts";
import {
  GRPC_CANCELLED,
  GRPC_DEADLINE_EXCEEDED,
  GRPC_OK,
  GRPC_UNAVAILABLE,
  GRPC_UNIMPLEMENTED,
  httpStatusOfGrpc,
} from "./status.ts";

export type GrpcOutcome =
  | { kind: "response"; response: BackendResponse & { grpc: GrpcAnswer } }
  | { kind: "timeout"; queued: false }
  | { kind: "failed"; error: Error & { code?: string } };

const identity = (value: Uint8Array) => Buffer.from(value.buffer, value.byteOffset, value.byteLength);
const asBytes = (value: Buffer) => value;

/** Headers as metadata: lower-case keys; those the HTTP/2 or gRPC framing owns are left out. Throws on an invalid key or value. */
export function grpcMetadata(headers: Record<string, string>): Metadata {
  const metadata = new Metadata();
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (reservedMetadata.has(key) || key.startsWith("grpc-")) continue;
    metadata.add(key, key.endsWith("-bin") ? Buffer.from(value, "base64") : value);
  }
  return metadata;
}

const reservedMetadata = new Set([
  "content-type",
  "te",
  "host",
  "user-agent",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "content-length",
]);

type Options = { deadlineMs: number; maxBytes: number };

export function sendGrpc(
  client: Client,
  path: string,
  request: GrpcRequest,
  metadata: Metadata,
  options: Options,
): Promise<GrpcOutcome> {
  const deadline = Date.now() + options.deadlineMs;
  return new Promise((resolve) => {
    const answer = new Answer(resolve);
    if (request.streaming === "unary") {
      unaryCall(client, path, identity(request.message), metadata, deadline, answer);
      return;
    }
    const call = client.makeServerStreamRequest(path, identity, asBytes, request.message, metadata, { deadline });
    let size = 0;
    call.on("metadata", (headers: Metadata) => answer.began(headers));
    call.on("data", (message: Buffer) => {
      if (answer.truncated) return;
      if (answer.messages.length >= request.maxMessages || size + message.length > options.maxBytes) {
        answer.truncated = true;
        call.cancel();
        return;
      }
      size += message.length;
      answer.messages.push(message);
    });
    // The status carries every error; without a listener an 'error' event would throw.
    call.on("error", () => undefined);
    call.on("status", (status: { code: number; details: string; metadata: Metadata }) =>
      answer.end(status.code, status.details, status.metadata),
    );
  });
}

/** One unary call on `client`'s channel, its outcome told to `answer`. */
function unaryCall(
  client: Client,
  path: string,
  message: Buffer,
  metadata: Metadata,
  deadline: number,
  answer: Answer,
): void {
  const call = client.getChannel().createCall(path, deadline, undefined, null, undefined);
  call.start(metadata, {
    onReceiveMetadata: (headers: Metadata) => answer.began(headers),
    // One read: a second message is never delivered (the call then ends at its deadline).
    onReceiveMessage: (value: Buffer) => answer.messages.push(value),
    // As makeUnaryRequest's callback gets it: OK is the message alone, anything else an error with its trailers.
    onReceiveStatus: (status: StatusObject) => {
      if (status.code !== GRPC_OK) answer.end(status.code, status.details, status.metadata);
      else if (answer.messages.length === 0) answer.end(GRPC_UNIMPLEMENTED, "No message received", status.metadata);
      else answer.end(GRPC_OK, "", undefined);
    },
  });
  call.startRead();
  call.sendMessageWithContext({}, message);
  call.halfClose();
}

/** A call's answer as it arrives: its response headers, its messages, then its status. */
class Answer {
  readonly messages: Uint8Array[] = [];
  truncated = false;
  private headers: Metadata | undefined;
  private readonly resolve: (outcome: GrpcOutcome) => void;

  constructor(resolve: (outcome: GrpcOutcome) => void) {
    this.resolve = resolve;
  }

  began(headers: Metadata): void {
    this.headers = headers;
  }

  end(given: number, details: string, trailers: Metadata | undefined): void {
    // Cancelled by us, past the limit: what was collected is the answer.
    const code = this.truncated && given === GRPC_CANCELLED ? GRPC_OK : given;
    if (code === GRPC_DEADLINE_EXCEEDED) {
      this.resolve({ kind: "timeout", queued: false });
      return;
    }
    if (code === GRPC_UNAVAILABLE && !this.headers) {
      this.resolve({ kind: "failed", error: Object.assign(new Error(details), { code: "UNAVAILABLE" }) });
      return;
    }
    this.resolve({
      kind: "response",
      response: {
        status: httpStatusOfGrpc(code),
        headers: headersOf(this.headers, trailers),
        body: EMPTY,
        grpc: { code, details, messages: this.messages, truncated: this.truncated },
      },
    });
  }
}

const EMPTY = Buffer.alloc(0);

/** Response headers and trailers as HTTP-style headers (text values only), for the plan's forwarded headers. */
function headersOf(headers: Metadata | undefined, trailers: Metadata | undefined): BackendResponse["headers"] {
  const merged: BackendResponse["headers"] = {};
  for (const metadata of [headers, trailers]) {
    if (!metadata) continue;
    for (const [key, value] of Object.entries(metadata.getMap())) if (typeof value === "string") merged[key] = value;
  }
  return merged;
}
