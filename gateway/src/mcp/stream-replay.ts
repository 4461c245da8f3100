/**
 * Resumable answer streams of 2025 sessions (SEP-1699). Each event of a POST's answer stream
 * carries an id, `<stream>.<n>`: the stream part is random, so it cannot be guessed, and a stream
 * belongs to the session that opened it, so another session's `Last-Event-ID` finds nothing. The
 * events are kept here while the call runs; an answer written to a live connection lets them go
 * once flushed, one that found no connection keeps them RETAIN_MS longer. When the client's
 * connection drops (or the gateway closes it on purpose, see response-stream.ts), the call goes
 * on, its events are kept, and a `GET` with the session and `Last-Event-ID` replays what followed
 * that id, then carries the rest live up to the answer.
 *
 * Memory is bounded per session and in total: past either bound the oldest streams are
 * forgotten, and resuming one is refused like an unknown id. The store is the replica's own, as
 * session log levels are: a resume reaching another replica, or this one after a restart, is
 * refused with 400 (the spec names no status; 400 is what a request the server cannot act on
 * gets, and 404 would tell the client its session is over, which it is not).
 */
import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { ERROR, McpError } from "./protocol.ts";

/** How long a finished stream's events stay resumable. */
export const RETAIN_MS = 60_000;
/** The `retry` the priming event asks for: how long a client waits before it reconnects. */
export const RETRY_MS = 1_000;
/** Bytes of kept events per session, and in total. */
export const MAX_SESSION_BYTES = 4 * 1024 * 1024;
export const MAX_TOTAL_BYTES = 64 * 1024 * 1024;

export const EVENT_STREAM_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  // Proxies such as nginx would hold the notifications back until the answer.
  "x-accel-buffering": "no",
};

interface Kept {
  seq: number;
  frame: string;
}

/** One answer stream: its events so far, and the connection (if any) that reads it live. */
export class ReplayStream {
  readonly id: string;
  readonly sessionId: string;
  private readonly store: StreamReplay;
  private readonly kept: Kept[] = [];
  private seq = 0;
  private connection: ServerResponse | undefined;
  private finished = false;
  /** Set once the store forgot it: events still go to a live connection, none are kept. */
  forgotten = false;
  bytes = 0;

  constructor(store: StreamReplay, sessionId: string) {
    this.store = store;
    this.sessionId = sessionId;
    this.id = randomBytes(12).toString("base64url");
  }

  /** The priming event (an id and no data), with the `retry` a client waits before reconnecting. */
  prime(): string {
    return `id: ${this.id}.${this.next()}\nretry: ${RETRY_MS}\ndata: \n\n`;
  }

  /** A JSON-RPC message's event, with its id, kept for a resume. */
  frame(text: string): string {
    const seq = this.next();
    const frame = `event: message\nid: ${this.id}.${seq}\ndata: ${text}\n\n`;
    this.keep(seq, frame);
    return frame;
  }

  /** Reads the stream live on `raw` (already sent its headers), from after event `after`. */
  attach(raw: ServerResponse, after = 0): void {
    for (const kept of this.kept) if (kept.seq > after && !raw.destroyed) raw.write(kept.frame);
    if (this.finished) {
      if (!raw.destroyed) raw.end();
      return;
    }
    // A client reading it twice: the newer connection wins.
    if (this.connection && !this.connection.destroyed) this.connection.end();
    this.connection = raw;
    raw.on("close", () => {
      if (this.connection === raw) this.connection = undefined;
    });
  }

  /** Ends the live connection without ending the stream: the client reconnects after `retry`. */
  detach(): void {
    const raw = this.connection;
    this.connection = undefined;
    if (raw && !raw.destroyed) raw.end();
  }

  /** A message on the stream: to the live connection, if one reads it. */
  write(text: string): void {
    const frame = this.frame(text);
    const raw = this.connection;
    if (raw && !raw.destroyed) raw.write(frame);
  }

  /**
   * The answer: the stream's last event. Written to a live connection, the stream is forgotten
   * once it is flushed; otherwise it is kept RETAIN_MS for a client that reconnects later.
   */
  end(text: string): void {
    const frame = this.frame(text);
    this.finished = true;
    const raw = this.connection;
    this.connection = undefined;
    if (raw && !raw.destroyed) raw.end(frame, () => this.store.forget(this));
    else this.store.finished(this);
  }

  /** The frames kept so far (the store drops them when it forgets the stream). */
  drop(): void {
    this.forgotten = true;
    this.kept.length = 0;
  }

  private next(): number {
    this.seq += 1;
    return this.seq;
  }

  private keep(seq: number, frame: string) {
    if (this.forgotten) return;
    this.kept.push({ seq, frame });
    this.store.grew(this, Buffer.byteLength(frame));
  }
}

export class StreamReplay {
  /** Oldest first (a Map keeps insertion order), as are each session's. */
  private readonly streams = new Map<string, ReplayStream>();
  private readonly sessions = new Map<string, { bytes: number; streams: Set<ReplayStream> }>();
  private totalBytes = 0;
  private readonly maxSessionBytes: number;
  private readonly maxTotalBytes: number;
  private readonly retainMs: number;

  constructor(limits: { maxSessionBytes?: number; maxTotalBytes?: number; retainMs?: number } = {}) {
    this.maxSessionBytes = limits.maxSessionBytes ?? MAX_SESSION_BYTES;
    this.maxTotalBytes = limits.maxTotalBytes ?? MAX_TOTAL_BYTES;
    this.retainMs = limits.retainMs ?? RETAIN_MS;
  }

  /** A new resumable stream of the session. */
  open(sessionId: string): ReplayStream {
    const stream = new ReplayStream(this, sessionId);
    this.streams.set(stream.id, stream);
    const session = this.sessions.get(sessionId) ?? { bytes: 0, streams: new Set<ReplayStream>() };
    session.streams.add(stream);
    this.sessions.set(sessionId, session);
    return stream;
  }

  /**
   * A `GET` with `Last-Event-ID`: the stream it names, if it is the session's and still kept,
   * replays what followed and goes on live; otherwise 400 in words.
   */
  resume(raw: ServerResponse, sessionId: string, lastEventId: string): void {
    const dot = lastEventId.lastIndexOf(".");
    const stream = this.streams.get(lastEventId.slice(0, dot));
    const after = Number(lastEventId.slice(dot + 1));
    if (!stream || stream.sessionId !== sessionId || dot < 0 || !Number.isSafeInteger(after))
      throw new McpError(
        ERROR.badRequest,
        "Bad Request: Last-Event-ID names no stream this gateway can resume: it is unknown, of another session, " +
          `expired (events are kept ${this.retainMs / 1000} s after the answer), or from another replica or before a restart`,
        400,
      );
    raw.writeHead(200, EVENT_STREAM_HEADERS);
    stream.attach(raw, after);
  }

  /** Accounts for a kept frame; past a bound, forgets the oldest streams (of the session, or of all). */
  grew(stream: ReplayStream, bytes: number): void {
    stream.bytes += bytes;
    this.totalBytes += bytes;
    const session = this.sessions.get(stream.sessionId);
    if (!session) return;
    session.bytes += bytes;
    for (const oldest of session.streams) {
      if (session.bytes <= this.maxSessionBytes) break;
      this.forget(oldest);
    }
    for (const oldest of this.streams.values()) {
      if (this.totalBytes <= this.maxTotalBytes) break;
      this.forget(oldest);
    }
  }

  /** An ended session: its streams go with it. */
  forgetSession(sessionId: string): void {
    for (const stream of this.sessions.get(sessionId)?.streams ?? []) this.forget(stream);
  }

  /** A stream that has its answer stays resumable for a while, then goes. */
  finished(stream: ReplayStream): void {
    if (stream.forgotten) return;
    setTimeout(() => this.forget(stream), this.retainMs).unref();
  }

  /** Bytes kept, for tests and bounds. */
  get bytes(): number {
    return this.totalBytes;
  }

  forget(stream: ReplayStream): void {
    if (stream.forgotten) return;
    this.streams.delete(stream.id);
    this.totalBytes -= stream.bytes;
    const session = this.sessions.get(stream.sessionId);
    if (session) {
      session.bytes -= stream.bytes;
      session.streams.delete(stream);
      if (session.streams.size === 0) this.sessions.delete(stream.sessionId);
    }
    stream.bytes = 0;
    stream.drop();
  }
}
