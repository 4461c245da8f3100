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
 *
 * In a 2025 session the stream is resumable (stream-replay.ts): its events carry ids, a
 * 2025-11-25 session's stream opens with a priming event (an id, `retry`, no data), and a call
 * whose client left goes on, its events kept for a `GET` with `Last-Event-ID`. When the gateway
 * polls (ATRIUM_GATEWAY_SSE_POLL_AFTER_MS), a 2025-11-25 call still running after that long gets
 * its stream opened, primed and its connection closed: the client reconnects with the priming
 * event's id and reads the rest from there, instead of holding a connection for the whole call.
 */
import { acceptsEventStream } from "@atrium/contract/accept-encoding";
import type { FastifyReply } from "fastify";
import { isLogLevel, type LogLevel, reaches } from "./log-levels.ts";
import { errorResponse, type JsonRpcId, resultResponse } from "./protocol.ts";
import { SerializedResult } from "./serialized.ts";
import { EVENT_STREAM_HEADERS, type ReplayStream, type StreamReplay } from "./stream-replay.ts";

export type ProgressToken = string | number;
/** Sends a log message to the client when `level` reaches the level it asked for. */
export type LogSink = (level: LogLevel, message: string) => void;

/** ATRIUM_GATEWAY_PROGRESS_AFTER_MS's default: a call running past a second gets progress, each second. */
export const DEFAULT_PROGRESS_AFTER_MS = 1_000;

/** A 2025 session's stream is resumable: kept in `store` under the session; primed and polled from 2025-11-25. */
export interface Resumable {
  store: StreamReplay;
  sessionId: string;
  /** 2025-11-25 and later: a priming event first (older clients choke on an event without data). */
  primed: boolean;
  /** Close the connection of a call running this long, after the priming event; undefined: never. */
  pollAfterMs?: number;
}

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
  resumable?: Resumable,
): ResponseStream | undefined {
  const token = typeof progressToken === "string" || typeof progressToken === "number" ? progressToken : undefined;
  const level = isLogLevel(logLevel) ? logLevel : undefined;
  const polled = resumable?.primed === true && resumable.pollAfterMs !== undefined;
  if (token === undefined && level === undefined && !polled) return undefined;
  if (!acceptsEventStream(reply.request.headers.accept)) return undefined;
  return new ResponseStream(reply, token, level, progressAfterMs, resumable);
}

export class ResponseStream {
  /** For DispatchContext.log: undefined when the client asked for no log messages, so none are built. */
  readonly log: LogSink | undefined;
  private readonly reply: FastifyReply;
  private readonly started = performance.now();
  private readonly waiting: string[] = [];
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly pollTimer: NodeJS.Timeout | undefined;
  private readonly resumable: Resumable | undefined;
  /** The kept stream, once open, of a resumable request. */
  private replay: ReplayStream | undefined;
  private open = false;
  private ended = false;

  constructor(
    reply: FastifyReply,
    progressToken: ProgressToken | undefined,
    logLevel: LogLevel | undefined,
    everyMs: number,
    resumable?: Resumable,
  ) {
    this.reply = reply;
    this.resumable = resumable;
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
    if (resumable?.primed && resumable.pollAfterMs !== undefined)
      this.pollTimer = setTimeout(() => this.poll(), resumable.pollAfterMs);
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
    if (this.pollTimer) clearTimeout(this.pollTimer);
  }

  /** The call runs long: the stream opens primed, and its connection closes; the client comes back with the id. */
  private poll() {
    this.openStream();
    this.replay?.detach();
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
    if (this.resumable) return this.openResumable(this.resumable);
    // The client went away (in 2026-07-28, closing the stream is how it cancels): nothing to say.
    if (raw.destroyed) return this.stop();
    raw.on("close", () => this.stop());
    raw.writeHead(200, EVENT_STREAM_HEADERS);
    for (const text of this.waiting.splice(0)) this.write(text);
  }

  /** A 2025 session's stream: kept for a resume, and a client leaving is no cancel (the call goes on). */
  private openResumable({ store, sessionId, primed }: Resumable) {
    const replay = store.open(sessionId);
    this.replay = replay;
    const raw = this.reply.raw;
    if (!raw.destroyed) raw.writeHead(200, EVENT_STREAM_HEADERS);
    if (primed && !raw.destroyed) raw.write(replay.prime());
    for (const text of this.waiting.splice(0)) replay.frame(text);
    replay.attach(raw);
  }

  private write(text: string) {
    if (this.replay) {
      if (!this.ended) this.replay.write(text);
      return;
    }
    const raw = this.reply.raw;
    if (!this.ended && !raw.destroyed) raw.write(event(text));
  }

  private end(answer: string) {
    this.ended = true;
    const raw = this.reply.raw;
    if (this.resumable) {
      if (!this.open) this.openStream();
      return this.replay?.end(answer);
    }
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

/** One SSE event carrying a JSON-RPC message. */
function event(text: string): string {
  return `event: message\ndata: ${text}\n\n`;
}
