/**
 * Change notifications on open streams. When the change stream brings a new version of an
 * Exposition (registry.ts), each stream open on it is told what changed:
 * `notifications/{tools,prompts,resources}/list_changed` for a list that differs, and
 * `notifications/resources/updated` for a subscribed URI whose Resource record (its text, MIME
 * type or backend path) differs.
 *
 * - 2025 sessions open a GET stream (one per session: a new one replaces the last); list changes
 *   go to every session stream, `resources/updated` only for the URIs the session subscribed to
 *   with `resources/subscribe`. A session's subscriptions are held by the replica that received
 *   them, as its log level is (log-levels.ts): behind a balancer, the session's GET stream must
 *   reach that replica to hear of them. A session that expires, or is ended on another replica,
 *   has its stream ended at its next notification or keep-alive.
 * - 2026-07-28 clients POST `subscriptions/listen`; its answer is a stream that stays open, opens
 *   with `notifications/subscriptions/acknowledged`, carries only what the filter asked for, and
 *   tags every notification with the listen request's id (`io.modelcontextprotocol/subscriptionId`).
 *   When the gateway shuts down, the listen request is answered (a graceful end).
 *
 * A stream is authorized when it opens, so it ends (and its client reconnects, authorized again)
 * when the OAuth token it opened with expires, and when its Exposition's authentication changes
 * (a renewed API key, OAuth turned on or reconfigured). Each caller holds at most
 * MAX_STREAMS_PER_CALLER streams, so one client cannot take the gateway's whole MAX_STREAMS.
 */
import type { FastifyReply } from "fastify";
import type { ServedExposition } from "../registry.ts";
import { ERROR, type JsonRpcId, McpError, resultResponse } from "./protocol.ts";
import { type PolledResource, type PollRead, polledResources, ResourcePolling } from "./resource-polling.ts";
import { listResources, listResourceTemplates, resolveResource } from "./resources.ts";

export const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
/** Open streams one gateway holds; beyond, a new one is refused with 503. */
export const MAX_STREAMS = 10_000;
/** Open streams of one caller (an API-key plan, an OAuth user, an open endpoint's client address). */
export const MAX_STREAMS_PER_CALLER = 1_000;
/** Resource subscriptions per session or listen request. */
export const MAX_SUBSCRIBED_URIS = 100;
/** Longest URI subscribed to: a template matches URIs of any length, and each subscription is held. */
export const MAX_SUBSCRIBED_URI_LENGTH = 8_192;
/** Sessions whose subscriptions this replica remembers: beyond it, the longest unchanged is forgotten. */
const MAX_SESSIONS = 10_000;
/** A comment line this often keeps idle streams from being cut by proxies. */
const KEEP_ALIVE_MS = 25_000;
/** setTimeout's longest delay; a token valid longer is re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Who opened a stream: what the per-caller bound counts, and until when its credential holds. */
export interface StreamCaller {
  /** The plan for API-key endpoints, the user for OAuth ones, the client address for open ones. */
  key: string;
  /** The verified token's expiry (ms since the epoch); the stream ends then. */
  validUntilMs?: number;
}

export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** A valid `subscriptions/listen`, returned by the modern era for the endpoint to open its stream. */
export class ListenRequest {
  readonly filter: SubscriptionFilter;
  constructor(filter: SubscriptionFilter) {
    this.filter = filter;
  }
}

/** `subscriptions/listen`'s params checked: `notifications` with boolean flags and at most 100 URIs. */
export function listenRequest(params: Record<string, unknown>): ListenRequest {
  const given = params.notifications;
  const invalid = (why: string) => new McpError(ERROR.invalidParams, `Invalid params: ${why}`, 400);
  if (typeof given !== "object" || given === null || Array.isArray(given))
    throw invalid("notifications must be an object (the subscription filter)");
  const filter: SubscriptionFilter = {};
  for (const key of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const) {
    const value = (given as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (typeof value !== "boolean") throw invalid(`notifications.${key} must be a boolean`);
    if (value) filter[key] = true;
  }
  const uris = (given as Record<string, unknown>).resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || uris.some((uri) => typeof uri !== "string"))
      throw invalid("notifications.resourceSubscriptions must be an array of URIs");
    if (uris.length > MAX_SUBSCRIBED_URIS)
      throw invalid(`notifications.resourceSubscriptions takes at most ${MAX_SUBSCRIBED_URIS} URIs`);
    if (uris.some((uri) => uri.length > MAX_SUBSCRIBED_URI_LENGTH))
      throw invalid(`notifications.resourceSubscriptions: a URI is at most ${MAX_SUBSCRIBED_URI_LENGTH} characters`);
    filter.resourceSubscriptions = [...new Set(uris as string[])];
  }
  return new ListenRequest(filter);
}

interface Listener {
  lists: { tools: boolean; prompts: boolean; resources: boolean };
  /** The URIs it wants `resources/updated` for. */
  uris(): Iterable<string>;
  subscribes(uri: string): boolean;
  notify(method: string, params?: Record<string, unknown>): void;
  /** Ends the stream; `graceful` answers a listen request first. */
  end(graceful: boolean): void;
}

/** What differs between two versions of an Exposition, for the notifications it causes. */
function listChanges(before: ServedExposition, after: ServedExposition) {
  const differs = (of: (served: ServedExposition) => unknown) =>
    JSON.stringify(of(before)) !== JSON.stringify(of(after));
  return {
    tools: differs((s) => s.toolset.tools),
    prompts: differs((s) => s.exposition.prompts),
    resources: differs((s) => [
      listResources(s.exposition.resources),
      listResourceTemplates(s.exposition.resourceTemplates),
    ]),
  };
}

const sourceOf = (served: ServedExposition, uri: string) =>
  JSON.stringify(resolveResource(served.exposition.resources, served.templates, uri) ?? null);

/** Whether a client authorized by `before` must be authorized again by `after`. */
function authenticationChanged(before: ServedExposition, after: ServedExposition): boolean {
  const [was, is] = [before.exposition.plan, after.exposition.plan];
  return was.apiKeyHash !== is.apiKeyHash || JSON.stringify(was.oauth) !== JSON.stringify(is.oauth);
}

export class Subscriptions {
  private readonly byExposition = new Map<string, Set<Listener>>();
  /** The version of each Exposition with open streams that they are told about. */
  private readonly current = new Map<string, ServedExposition>();
  private readonly poller: ResourcePolling | undefined;
  private readonly isLive: (sessionId: string) => boolean;
  private readonly latest: (expositionId: string) => ServedExposition | undefined;
  private readonly sessionStreams = new Map<string, Listener>();
  private readonly sessionUris = new Map<string, Set<string>>();
  /** Exposition ids with open streams whose current version has polled resources: what a poll tick walks. */
  private readonly polled = new Set<string>();
  private readonly openByCaller = new Map<string, number>();
  private readonly maxPerCaller: number;
  private open = 0;

  /**
   * `read`: how backend-fetched resources with `pollSeconds` are read (resource-polling.ts); none
   * are polled without it. `isLive`: whether a 2025 session still verifies (not expired, not ended).
   * `latest`: the version of an Exposition served now (the registry's), which a stream opens on.
   * `maxPerCaller`: open streams one caller may hold.
   */
  constructor(
    options: {
      read?: PollRead;
      isLive?: (sessionId: string) => boolean;
      latest?: (expositionId: string) => ServedExposition | undefined;
      maxPerCaller?: number;
    } = {},
  ) {
    const { read } = options;
    this.isLive = options.isLive ?? (() => true);
    this.latest = options.latest ?? (() => undefined);
    this.maxPerCaller = options.maxPerCaller ?? MAX_STREAMS_PER_CALLER;
    this.poller =
      read &&
      new ResourcePolling(
        read,
        () => this.watchedPolled(),
        (id, uri) => this.updated(id, uri),
      );
  }

  /** `resources/subscribe` in a 2025 session: the URI must name a resource or match a template. */
  subscribe(served: ServedExposition, sessionId: string, uri: unknown): void {
    if (typeof uri !== "string") throw new McpError(ERROR.invalidParams, "Invalid params: uri must be a string");
    if (uri.length > MAX_SUBSCRIBED_URI_LENGTH)
      throw new McpError(ERROR.invalidParams, `Invalid params: uri is at most ${MAX_SUBSCRIBED_URI_LENGTH} characters`);
    if (!resolveResource(served.exposition.resources, served.templates, uri))
      throw new McpError(ERROR.resourceNotFound, `Resource not found: ${uri}`, 200, { uri });
    const uris = this.sessionUris.get(sessionId) ?? new Set<string>();
    if (!uris.has(uri) && uris.size >= MAX_SUBSCRIBED_URIS)
      throw new McpError(ERROR.invalidParams, `A session subscribes to at most ${MAX_SUBSCRIBED_URIS} resources`);
    uris.add(uri);
    // Re-inserted at the end: the map's order is the order of last change.
    this.sessionUris.delete(sessionId);
    this.sessionUris.set(sessionId, uris);
    if (this.sessionUris.size > MAX_SESSIONS) this.sessionUris.delete(this.sessionUris.keys().next().value as string);
  }

  unsubscribe(sessionId: string, uri: unknown): void {
    if (typeof uri !== "string") throw new McpError(ERROR.invalidParams, "Invalid params: uri must be a string");
    this.sessionUris.get(sessionId)?.delete(uri);
  }

  /** An ended session: its subscriptions and stream go with it. */
  forget(sessionId: string): void {
    this.sessionUris.delete(sessionId);
    this.sessionStreams.get(sessionId)?.end(false);
  }

  /** A 2025 session's GET stream: every list change, and updates of the URIs it subscribed to. */
  openSessionStream(reply: FastifyReply, served: ServedExposition, sessionId: string, caller: StreamCaller): void {
    this.sessionStreams.get(sessionId)?.end(false);
    const stream = this.start(reply, served, caller, {
      lists: { tools: true, prompts: true, resources: true },
      uris: () => this.sessionUris.get(sessionId) ?? [],
      subscribes: (uri) => this.sessionUris.get(sessionId)?.has(uri) === true,
      tag: {},
      live: () => this.isLive(sessionId),
      onEnd: (ended) => {
        if (this.sessionStreams.get(sessionId) === ended) this.sessionStreams.delete(sessionId);
      },
    });
    // Ended already when the client left before it opened.
    if (!reply.raw.destroyed) this.sessionStreams.set(sessionId, stream);
  }

  /** A 2026-07-28 listen stream: acknowledged first, then what its filter asked for, each tagged with its id. */
  openListenStream(
    reply: FastifyReply,
    served: ServedExposition,
    id: JsonRpcId,
    filter: SubscriptionFilter,
    caller: StreamCaller,
  ): void {
    const uris = new Set(filter.resourceSubscriptions);
    const stream = this.start(reply, served, caller, {
      lists: {
        tools: filter.toolsListChanged === true,
        prompts: filter.promptsListChanged === true,
        resources: filter.resourcesListChanged === true,
      },
      uris: () => uris,
      subscribes: (uri) => uris.has(uri),
      tag: { [SUBSCRIPTION_ID]: id },
      answer: id,
    });
    stream.notify("notifications/subscriptions/acknowledged", { notifications: filter });
  }

  /** A new version of an Exposition (undefined `after`: it is no longer served). */
  changed(before: ServedExposition | undefined, after: ServedExposition | undefined): void {
    const id = (before ?? after)?.exposition.id;
    const listeners = id === undefined ? undefined : this.byExposition.get(id);
    if (!listeners || listeners.size === 0 || !before) return;
    // Ended (their clients reconnect and are authorized again) rather than told.
    if (!after || authenticationChanged(before, after)) {
      for (const listener of [...listeners]) listener.end(false);
      return;
    }
    this.setCurrent(after);
    const lists = listChanges(before, after);
    // Once per URI, however many streams subscribe to it: a resource may be a megabyte.
    const updated = new Map<string, boolean>();
    const isUpdated = (uri: string) => {
      let differs = updated.get(uri);
      if (differs === undefined) {
        differs = sourceOf(before, uri) !== sourceOf(after, uri);
        updated.set(uri, differs);
      }
      return differs;
    };
    for (const listener of listeners) {
      if (lists.tools && listener.lists.tools) listener.notify("notifications/tools/list_changed");
      if (lists.prompts && listener.lists.prompts) listener.notify("notifications/prompts/list_changed");
      if (lists.resources && listener.lists.resources) listener.notify("notifications/resources/list_changed");
      for (const uri of listener.uris())
        if (isUpdated(uri)) listener.notify("notifications/resources/updated", { uri });
    }
  }

  /** Whether the poll timer runs: only while a stream is open on an Exposition with polled resources. */
  get polling(): boolean {
    return this.poller?.running === true;
  }

  /** The version of an Exposition its streams hear of, and whether a poll tick visits it. */
  private setCurrent(served: ServedExposition): void {
    const id = served.exposition.id;
    this.current.set(id, served);
    if (polledResources(served).length > 0) this.polled.add(id);
    else this.polled.delete(id);
    this.poller?.run(this.polled.size > 0);
  }

  /** The polled resources some open stream subscribes to, each once per Exposition. */
  private *watchedPolled(): Generator<{ served: ServedExposition; resource: PolledResource }> {
    for (const id of this.polled) {
      const served = this.current.get(id);
      const listeners = this.byExposition.get(id);
      if (!served || !listeners) continue;
      for (const resource of polledResources(served))
        for (const listener of listeners)
          if (listener.subscribes(resource.uri)) {
            yield { served, resource };
            break;
          }
    }
  }

  /** A polled resource's content changed: its subscribers are told. */
  private updated(expositionId: string, uri: string): void {
    for (const listener of this.byExposition.get(expositionId) ?? []) {
      if (listener.subscribes(uri)) listener.notify("notifications/resources/updated", { uri });
    }
  }

  /** Ends every stream (the gateway is closing); listen requests get their answer. */
  close(): void {
    for (const listeners of this.byExposition.values()) for (const listener of [...listeners]) listener.end(true);
  }

  private start(
    reply: FastifyReply,
    served: ServedExposition,
    caller: StreamCaller,
    options: {
      lists: Listener["lists"];
      uris: () => Iterable<string>;
      subscribes: (uri: string) => boolean;
      /** `_meta` of every notification. */
      tag: Record<string, unknown>;
      /** The listen request's id, answered on a graceful end. */
      answer?: JsonRpcId;
      /** False once the stream's session has expired or ended (on any replica): the stream ends. */
      live?: () => boolean;
      onEnd?: (listener: Listener) => void;
    },
  ): Listener {
    if (this.open >= MAX_STREAMS)
      throw new McpError(ERROR.internal, "This gateway holds too many notification streams; retry later", 503);
    const callerOpen = this.openByCaller.get(caller.key) ?? 0;
    if (callerOpen >= this.maxPerCaller)
      throw new McpError(
        ERROR.internal,
        `This client holds ${this.maxPerCaller} notification streams on this gateway, the most it may; close one or retry later`,
        503,
      );
    // A change that landed while the request was being authorized (a token check may await the
    // issuer's keys): its authentication is not the one the client passed.
    const latest = this.latest(served.exposition.id) ?? served;
    if (latest !== served && authenticationChanged(served, latest))
      throw new McpError(
        ERROR.internal,
        "This endpoint's authentication changed while the stream was opening; retry with its new credentials",
        503,
      );
    const expositionId = served.exposition.id;
    const raw = reply.raw;
    reply.hijack();
    raw.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    });
    // Sent now: Node holds written headers until the first body bytes, and a session stream may
    // have nothing to say for a while (its client waits for the headers to know it is open).
    raw.flushHeaders();
    const write = (message: unknown) => {
      if (!raw.destroyed) raw.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    };
    const keepAlive = setInterval(() => {
      if (options.live?.() === false) listener.end(false);
      else if (!raw.destroyed) raw.write(": keep-alive\n\n");
    }, KEEP_ALIVE_MS);
    keepAlive.unref();
    let expiry: NodeJS.Timeout | undefined;
    const expireAt = (validUntilMs: number) => {
      const left = validUntilMs - Date.now();
      if (left <= 0) return listener.end(false);
      expiry = setTimeout(() => expireAt(validUntilMs), Math.min(left, MAX_TIMER_MS));
      expiry.unref();
    };
    let ended = false;
    const listener: Listener = {
      lists: options.lists,
      uris: options.uris,
      subscribes: options.subscribes,
      notify: (method, params = {}) => {
        // Ended (a write after the end would be an error on the response), or its session is over.
        if (ended) return;
        if (options.live?.() === false) return listener.end(false);
        const meta = Object.keys(options.tag).length > 0 ? { _meta: options.tag } : {};
        write({ jsonrpc: "2.0", method, params: { ...params, ...meta } });
      },
      end: (graceful) => {
        if (ended) return;
        ended = true;
        clearInterval(keepAlive);
        clearTimeout(expiry);
        this.open -= 1;
        const left = (this.openByCaller.get(caller.key) ?? 1) - 1;
        if (left > 0) this.openByCaller.set(caller.key, left);
        else this.openByCaller.delete(caller.key);
        const listeners = this.byExposition.get(expositionId);
        listeners?.delete(listener);
        if (listeners?.size === 0) {
          this.byExposition.delete(expositionId);
          this.current.delete(expositionId);
          this.polled.delete(expositionId);
          this.poller?.run(this.polled.size > 0);
        }
        options.onEnd?.(listener);
        if (graceful && options.answer !== undefined)
          write(resultResponse(options.answer, { _meta: options.tag, resultType: "complete" }));
        if (!raw.destroyed) raw.end();
      },
    };
    this.open += 1;
    this.openByCaller.set(caller.key, callerOpen + 1);
    const listeners = this.byExposition.get(expositionId) ?? new Set<Listener>();
    listeners.add(listener);
    this.byExposition.set(expositionId, listeners);
    this.setCurrent(latest);
    // A client that left before the stream opened: there is nobody to tell.
    if (raw.destroyed) listener.end(false);
    else {
      raw.on("close", () => listener.end(false));
      if (caller.validUntilMs !== undefined) expireAt(caller.validUntilMs);
    }
    return listener;
  }
}
