/**
 * Backend-fetched resources with `fromBackend.pollSeconds`: while a stream subscribes to one, the
 * gateway reads it that often (with `If-None-Match` once it has an ETag: a 304 is no change) and
 * reports a change of its content (SHA-256 of the body) as `notifications/resources/updated`. The first read
 * sets the baseline. A failed read (error status, timeout, open breaker) changes nothing and is
 * tried again at the next interval. Plans whose backend credential is elicited from each user, or
 * exchanged for each caller's token, are not polled: there is no one's credential to read with.
 *
 * One timer per gateway ticks each second while streams are open on Expositions with polled
 * resources (none otherwise); a resource is read by one poll at a time, and its state is dropped
 * when nobody subscribes to it any more. The state is that of one URI read from one backend path:
 * a resource whose path or backend changed starts again from a baseline.
 */
import { createHash } from "node:crypto";
import type { Backends } from "../backend.ts";
import { asksEachUser } from "../elicitation/flow.ts";
import type { ServedExposition } from "../registry.ts";

/** What a poll found: `undefined` when the read failed or the resource is not polled. */
export type PollRead = (
  served: ServedExposition,
  path: string,
  etag: string | undefined,
) => Promise<{ notModified: true } | { notModified: false; etag?: string; digest: string } | undefined>;

/** Reads through the plan's backend pool, as resources/read does, with no client's headers. */
export function backendPollRead(backends: Backends): PollRead {
  return async (served, path, etag) => {
    const { plan } = served.exposition;
    const source = plan.backendSecret?.source;
    if (source === "tokenExchange" || asksEachUser(plan.backendSecret)) return undefined;
    const outcome = await backends.call(
      served.backend,
      plan,
      { method: "GET", path, headers: etag ? { "if-none-match": etag } : {} },
      {},
      { share: served.exposition.resources },
    );
    if (outcome.kind !== "response") return undefined;
    const { status, headers, body } = outcome.response;
    if (status === 304) return { notModified: true };
    if (status >= 300) return undefined;
    const tag = headers.etag;
    return {
      notModified: false,
      ...(typeof tag === "string" ? { etag: tag } : {}),
      digest: createHash("sha256").update(body).digest("hex"),
    };
  };
}

const TICK_MS = 1_000;

export type PolledResource = ServedExposition["exposition"]["resources"][number] & {
  fromBackend: { path: string; pollSeconds: number };
};

const polledOf = new WeakMap<ServedExposition, PolledResource[]>();

/** An Exposition's resources with `fromBackend.pollSeconds`, found once per version. */
export function polledResources(served: ServedExposition): PolledResource[] {
  let polled = polledOf.get(served);
  if (!polled) {
    polled = served.exposition.resources.filter((r): r is PolledResource => Boolean(r.fromBackend?.pollSeconds));
    polledOf.set(served, polled);
  }
  return polled;
}

interface PollState {
  etag?: string;
  digest?: string;
  dueAt: number;
  busy: boolean;
}

export class ResourcePolling {
  private readonly read: PollRead;
  private readonly watched: () => Iterable<{ served: ServedExposition; resource: PolledResource }>;
  private readonly updated: (expositionId: string, uri: string) => void;
  private readonly state = new Map<string, PollState>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    read: PollRead,
    /** The polled resources open streams subscribe to, with the Exposition version they are served from. */
    watched: () => Iterable<{ served: ServedExposition; resource: PolledResource }>,
    updated: (expositionId: string, uri: string) => void,
  ) {
    this.read = read;
    this.watched = watched;
    this.updated = updated;
  }

  get running(): boolean {
    return this.timer !== undefined;
  }

  /** Ticks while `active` (open streams may subscribe to a polled resource). */
  run(active: boolean): void {
    if (active && !this.timer) {
      this.timer = setInterval(() => this.tick(), TICK_MS);
      this.timer.unref();
    } else if (!active && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.state.clear();
    }
  }

  /** One round: each subscribed, polled resource that is due is read. */
  tick(now = Date.now()): void {
    const seen = new Set<string>();
    for (const { served, resource } of this.watched()) {
      const { uri, fromBackend } = resource;
      const key = JSON.stringify([served.exposition.id, uri, served.exposition.plan.backendEndpoint, fromBackend.path]);
      seen.add(key);
      let state = this.state.get(key);
      if (!state) {
        state = { dueAt: now, busy: false };
        this.state.set(key, state);
      }
      if (state.busy || now < state.dueAt) continue;
      state.busy = true;
      const current = state;
      const intervalMs = fromBackend.pollSeconds * 1000;
      void this.read(served, fromBackend.path, current.etag)
        .then((found) => {
          if (!found || found.notModified) return;
          const changed = current.digest !== undefined && found.digest !== current.digest;
          current.digest = found.digest;
          current.etag = found.etag;
          if (changed) this.updated(served.exposition.id, uri);
        })
        .catch(() => undefined)
        .finally(() => {
          current.busy = false;
          current.dueAt = Date.now() + intervalMs;
        });
    }
    for (const key of this.state.keys()) if (!seen.has(key)) this.state.delete(key);
  }
}
