/**
 * A request's answer as a server-sent-events stream, for the notifications that go with it:
 * `notifications/progress` while the request outlasts the progress threshold (when the client
 * sent a `progressToken`), and `notifications/message` at or above the level the client asked
 * for. Both eras answer this way: a 2025 session's POST and a 2026-07-28 request may each get
 * their own stream, closed after the answer.
 *
 * Made only for a client that accepts `text/event-stream` and asked for progress or log
 * messages; any other request is answered with JSON as before and pays nothing. The stream opens
 * at the first progress tick. Log messages written before then wait for it, and are sent with the
 * answer when it comes first. An answer with nothing waiting and no stream open goes out as plain
 * JSON, and so does an error raised before the stream opened, with its own HTTP status.
 */
import { acceptsEventStream } from "@atrium/contract/accept-encoding";
import type { FastifyReply } from "fastify";
import { isLogLevel, type LogLevel, reaches } from "./log-levels.ts";
import { errorResponse, type JsonRpcId, resultResponse } from "./protocol.ts";
import { SerializedResult } from "./serialized.ts";

export type ProgressToken = string | number;
/** Sends a log message to the client when `level` reaches the level it asked for. */
export type LogSink = (level: LogLevel, message: string) => void;

/** ATRIUM_GATEWAY_PROGRESS_AFTER_MS's default: a call running past a second gets progress, each second. */
export const DEFAULT_PROGRESS_AFTER_MS = 1_000;

/** The `logger` field of the gateway's log messages. */
export const LOGGER = "atrium-gateway";

/**
 * The stream for a request that asked for progress (its `_meta.progressToken`, a string or a
 * number) or log messages (a level), when its client accepts SSE; undefined otherwise (the
 * answer is JSON).
 */
export function responseStream(
  reply: FastifyReply,
  progressToken: unknown,
  logLevel: unknown,
  progressAfterMs: number,
): ResponseStream | undefined {
  const token = typeof progressToken === "string" || typeof progressToken === "number" ? progressToken : undefined;
  const level = isLogLevel(logLevel) ? logLevel : undefined;
  if (token === undefined && level === undefined) return undefined;
  if (!acceptsEventStream(reply.request.headers.accept)) return undefined;
  return new ResponseStream(reply, token, level, progressAfterMs);
}

export class ResponseStream {
  /** For DispatchContext.log: undefined when the client asked for no log messages, so none are built. */
  readonly log: LogSink | undefined;
  private readonly reply: FastifyReply;
  private readonly started = performance.now();
  private readonly waiting: string[] = [];
  private readonly timer: NodeJS.Timeout | undefined;
  private open = false;
  private ended = false;

  constructor(
    reply: FastifyReply,
    progressToken: ProgressToken | undefined,
    logLevel: LogLevel | undefined,
    everyMs: number,
  ) {
    this.reply = reply;
    if (logLevel !== undefined) {
      this.log = (level, message) => {
        if (reaches(level, logLevel))
          this.send({
            jsonrpc: "2.0",
            method: "notifications/message",
            params: { level, logger: LOGGER, data: message },
          });
      };
    }
    if (progressToken !== undefined) this.timer = setInterval(() => this.progress(progressToken), everyMs);
  }

  /** Sends the answer on the stream and ends it; false when the stream is not needed (the caller sends JSON). */
  finish(id: JsonRpcId, result: unknown): boolean {
    this.stop();
    if (!this.open && this.waiting.length === 0) return false;
    const answer =
      result instanceof SerializedResult
        ? Buffer.concat(result.answer(id, false).chunks).toString("utf8")
        : JSON.stringify(resultResponse(id, result));
    this.end(answer);
    return true;
  }

  /** Sends an error on the open stream and ends it; false before it opened (the error keeps its HTTP status). */
  fail(id: JsonRpcId | null, error: { code: number; message: string; data?: unknown }): boolean {
    this.stop();
    if (!this.open) return false;
    this.end(JSON.stringify(errorResponse(id, error.code, error.message, error.data)));
    return true;
  }

  /** Stops the progress ticks (the request is over, one way or another). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private progress(progressToken: ProgressToken) {
    const seconds = Math.round(performance.now() - this.started) / 1000;
    this.openStream();
    this.send({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken, progress: seconds, message: `Waiting for the backend: ${seconds.toFixed(1)} s` },
    });
  }

  private send(message: unknown) {
    const text = JSON.stringify(message);
    if (this.open) this.write(text);
    else this.waiting.push(text);
  }

  private openStream() {
    if (this.open) return;
    this.open = true;
    this.reply.hijack();
    const raw = this.reply.raw;
    // The client went away (in 2026-07-28, closing the stream is how it cancels): nothing to say.
    if (raw.destroyed) return this.stop();
    raw.on("close", () => this.stop());
    raw.writeHead(200, EVENT_STREAM_HEADERS);
    for (const text of this.waiting.splice(0)) this.write(text);
  }

  private write(text: string) {
    const raw = this.reply.raw;
    if (!this.ended && !raw.destroyed) raw.write(event(text));
  }

  private end(answer: string) {
    this.ended = true;
    const raw = this.reply.raw;
    if (this.open) {
      if (!raw.destroyed) raw.end(event(answer));
      return;
    }
    // Nothing sent yet (the usual fast call with log messages): the whole stream in one write,
    // headers included, instead of a chunk per message and one to end it.
    this.open = true;
    this.reply.hijack();
    if (raw.destroyed) return;
    const body = this.waiting.splice(0).map(event).join("") + event(answer);
    raw.writeHead(200, { ...EVENT_STREAM_HEADERS, "content-length": String(Buffer.byteLength(body)) });
    raw.end(body);
  }
}

const EVENT_STREAM_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  // Proxies such as nginx would hold the notifications back until the answer.
  "x-accel-buffering": "no",
};

/** One SSE event carrying a JSON-RPC message. */
function event(text: string): string {
  return `event: message\ndata: ${text}\n\n`;
}
