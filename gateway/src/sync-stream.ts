/**
 * The change stream: one server-sent-events request to the control plane, read until it breaks.
 * The stream is watched: three silent heartbeats mean a dead or frozen replica, and short connect
 * and header timeouts keep a frozen replica from holding the gateway. Every way it ends is a
 * {@link SyncFailure} saying why, except stopping it.
 */
import { createParser } from "eventsource-parser";
import { request } from "undici";
import type { ControlPlaneClient } from "./control-plane-client.ts";
import { SyncFailure } from "./sync-failure.ts";

/** At most this long for the stream's response headers (the control plane sends them at once). */
const STREAM_HEADERS_TIMEOUT_MS = 10_000;

export interface StreamListener {
  /** The control plane accepted the stream (before any event). */
  opened(): void;
  /** Something arrived (an event or a heartbeat): the replica is alive. */
  alive(): void;
  /** An event; throwing makes the message unreadable, and the stream is reopened. */
  event(name: string | undefined, data: string): void;
  /** The control plane does not know this registration (or refused the token): register again. */
  unregistered(): void;
}

export class ChangeStream {
  private readonly client: ControlPlaneClient;
  private readonly path: string;
  private readonly instanceId: string;
  private abortController: AbortController | undefined;
  private stopped = false;

  constructor(client: ControlPlaneClient, gateway: { id: string; instanceId: string }) {
    this.client = client;
    this.path = `/api/v1/gateways/${gateway.id}/stream`;
    this.instanceId = gateway.instanceId;
  }

  /** Ends the stream being read (the caller reconnects). */
  abort(): void {
    this.abortController?.abort();
  }

  /** Ends it for good: `follow` then returns instead of throwing. */
  stop(): void {
    this.stopped = true;
    this.abort();
  }

  /** Reads the stream from `since` (everything, as a snapshot, when undefined); throws why it ended. */
  async follow(since: number | undefined, heartbeatMs: number, listener: StreamListener): Promise<void> {
    const query = new URLSearchParams({ instanceId: this.instanceId });
    if (since !== undefined) query.set("since", String(since));
    const abort = new AbortController();
    this.abortController = abort;
    // A stream that stays silent for three heartbeats is dead or its replica frozen.
    const silenceMs = 3 * heartbeatMs;
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(`${this.client.url}${this.path}?${query}`, {
        dispatcher: this.client.dispatcher,
        headers: { authorization: this.client.authorization, accept: "text/event-stream" },
        signal: abort.signal,
        headersTimeout: Math.min(STREAM_HEADERS_TIMEOUT_MS, silenceMs),
        bodyTimeout: silenceMs,
      });
    } catch (error) {
      if (this.stopped) return;
      throw new SyncFailure("unreachable", (error as Error).message);
    }
    if (response.statusCode === 404 || response.statusCode === 401) {
      listener.unregistered();
      await response.body.dump();
      throw new SyncFailure(
        "refused",
        response.statusCode === 404
          ? "the control plane does not know this gateway's registration"
          : "the control plane refused this gateway's token on the change stream",
      );
    }
    if (response.statusCode !== 200) {
      const text = await response.body.text();
      const kind = response.statusCode >= 500 ? "unreachable" : "refused";
      throw new SyncFailure(kind, `change stream refused (${response.statusCode}): ${text.slice(0, 300)}`);
    }
    listener.opened();
    let failure: Error | undefined;
    const parser = createParser({
      onEvent: (event) => {
        try {
          listener.event(event.event, event.data);
        } catch (error) {
          failure = new SyncFailure("unreadable message", (error as Error).message);
          abort.abort();
        }
      },
    });
    try {
      for await (const chunk of response.body) {
        listener.alive();
        parser.feed(chunk.toString("utf8"));
      }
    } catch (error) {
      if (failure) throw failure;
      if (this.stopped) return;
      throw new SyncFailure("unreachable", `the change stream broke: ${(error as Error).message}`);
    }
    if (failure) throw failure;
    throw new SyncFailure("unreachable", "the change stream ended");
  }
}
