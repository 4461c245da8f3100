/**
 * Calls backends: one keep-alive undici Pool per backend origin, the plan's header policy and
 * backend secret applied, a timeout that yields a gateway-generated 504, and a cap on how much
 * of a response is read.
 *
 * The timeout covers the whole call: waiting for a share of the pool, waiting for a pooled
 * connection, the headers and the body. Each tool (each `share`) may hold at most
 * SHARE_CONNECTIONS of its origin's POOL_CONNECTIONS connections at once; its further calls wait
 * in its own queue, so a tool whose backend hangs cannot starve the other tools of that origin.
 *
 * A backend that cannot be reached is reported to the client as "unreachable" with a correlation
 * id, one whose connection fails after its answer began as having closed it before the answer was
 * complete; its address and error code go to the log only, under that id. So does the name of an
 * environment variable that holds no backend secret.
 *
 * A plan whose backend secret is `oauth2ClientCredentials` sends a token from BackendTokens
 * (backend-token.ts) as `Authorization: Bearer`, one whose secret is `tokenExchange` the caller's
 * own exchanged token (token-exchange.ts), never the caller's token itself; a 401 from the backend
 * drops that token and the call is sent once more with a new one. One whose secret is elicited sends the caller's own
 * credential (`scope.credential`, looked up by elicitation/flow.ts) where a stored secret would go,
 * and refuses to call without one.
 *
 * A gRPC tool's call (`BackendRequest.grpc`) goes over its backend's pooled gRPC channel
 * (grpc/channels.ts) instead: the same header policy and secret as metadata, the same timeout as
 * its deadline, the same breaker; no share of a pool, as its calls multiplex on one connection.
 *
 * A plan with `backendTls` calls through pools of its own, with its CAs, client certificate and
 * server name (backend-tls.ts); a call whose TLS handshake fails is told which check failed, over
 * https and grpcs alike.
 *
 * Each call passes the plan's circuit breaker for its backend origin (circuit-breaker.ts) once it
 * is ready to be sent: an open breaker answers "unavailable" at once, with when to retry. A call
 * that timed out after waiting in its share's queue for most of its time counts neither way.
 */
import { randomBytes } from "node:crypto";
import type { CompiledExposition } from "@atrium/contract";
import { tracing, withinRequest } from "@atrium/contract/telemetry";
import { tlsFailure } from "@atrium/contract/tls-failure";
import { circuitBreaker } from "@atrium/crds";
import type { Metadata } from "@grpc/grpc-js";
import type { FastifyBaseLogger } from "fastify";
import { type Dispatcher, Pool } from "undici";
import { bearerToken } from "./auth/client-auth.ts";
import { type BackendRoute, endBackendSpan, startBackendSpan } from "./backend-span.ts";
import { type BackendTls, BackendTlsSet } from "./backend-tls.ts";
import { BackendTokens, type ClientCredentials, type TokenFailure, type TokenOutcome } from "./backend-token.ts";
import {
  type CallVerdict,
  type CircuitBreaker,
  CircuitBreakers,
  type CircuitTransition,
  isRefusal,
  type Ticket,
} from "./circuit-breaker.ts";
import { asksEachUser } from "./elicitation/flow.ts";
import { grpcMetadata, sendGrpc } from "./grpc/call.ts";
import { GrpcChannels, grpcTlsFailure, isGrpcOrigin } from "./grpc/channels.ts";
import { ExchangedTokens } from "./token-exchange.ts";
import { type BackendBase, type BackendRequest, joinBackendUrl } from "./tools/request.ts";
import type { BackendResponse } from "./tools/result.ts";

export type BackendOutcome =
  | { kind: "response"; response: BackendResponse }
  | { kind: "timeout"; ms: number }
  | { kind: "error"; message: string }
  /** Refused by the open circuit breaker, without calling the backend. */
  | { kind: "unavailable"; message: string; retryAfterSeconds: number };

/** What a call did to its breaker: opened or closed it, or was refused by it. */
export type CircuitEvent = CircuitTransition | "refused";

type Plan = CompiledExposition["plan"];

/** Connections per backend origin. */
export const POOL_CONNECTIONS = 64;
/** Connections one share (a tool of a plan) may hold at once: a quarter of its origin's pool. */
export const SHARE_CONNECTIONS = 16;

/** Who a call is for and by when it must be done. */
export interface CallScope {
  /** The share of the pool it counts against: any object standing for it, such as the tool's runtime. */
  share: object;
  /** `performance.now()` by which it must be answered, when earlier than the plan's timeout (a batch's deadline). */
  deadline?: number;
  /** Told when the call opened or closed its breaker, or was refused by it (metrics, audit). */
  onCircuit?: (event: CircuitEvent) => void;
  /** Set on the one retry after a backend 401 refused a client-credentials token. */
  afterRefresh?: boolean;
  /** Told, in words for the client, why the call is sent once more (its log messages). */
  onRetry?: (reason: string) => void;
  /** The caller's own credential, on plans whose backend secret is elicited (elicitation/flow.ts). */
  credential?: string;
  /** The OAuth caller (TokenPrincipal.user), whose validated token a token-exchange plan exchanges. */
  caller?: string;
  /** Until when the caller's token holds (ms since the epoch). */
  callerValidUntilMs?: number;
  /** What the call is, for its trace span (the tool's ToolRuntime.route). */
  route?: BackendRoute;
}

/** For plans that carry no breaker settings (built by hand in tests): the schema's defaults. */
const DEFAULT_CIRCUIT_BREAKER = circuitBreaker.parse(undefined);

/** ${env:VAR} values are read once: fixed for the lifetime of the process. */
const environment = new Map<string, string | undefined>();
function fromEnvironment(variable: string): string | undefined {
  if (!environment.has(variable)) environment.set(variable, process.env[variable]);
  return environment.get(variable);
}

/** What `promise` gives within `ms`, or undefined when it takes longer. */
async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A secret's value: decrypted by the control plane, or read from the gateway's environment. */
export function secretValue(secret: { source: string; value?: string; variable?: string }): string | undefined {
  return secret.source === "value" ? secret.value : fromEnvironment(secret.variable ?? "");
}

/** Keep-alive of idle backend connections. */
const KEEP_ALIVE_MS = 30_000;

export class Backends {
  private readonly pools = new Map<string, Pool>();
  /** The pools of plans with backend TLS settings, apart from the shared ones. */
  private readonly tls = new BackendTlsSet({ connections: POOL_CONNECTIONS, keepAliveTimeout: KEEP_ALIVE_MS });
  /** Keyed by what stands for each share: they go with the tools they belong to. */
  private readonly shares = new WeakMap<object, Share>();
  private readonly maxBodyBytes: number;
  private log: Pick<FastifyBaseLogger, "warn" | "info"> | undefined;
  readonly breakers: CircuitBreakers;
  /** Client-credentials tokens of the plans that use them, on this replica. */
  readonly tokens: BackendTokens;
  /** Exchanged tokens of the callers of token-exchange plans, on this replica. */
  readonly exchanged: ExchangedTokens;
  /** The channels of gRPC backends (grpc/channels.ts): one per backend, as the pools are. */
  readonly grpc: GrpcChannels;

  constructor(options: {
    maxBodyBytes: number;
    breakers?: CircuitBreakers;
    tokens?: BackendTokens;
    exchanged?: ExchangedTokens;
  }) {
    this.maxBodyBytes = options.maxBodyBytes;
    this.breakers = options.breakers ?? new CircuitBreakers();
    this.tokens = options.tokens ?? new BackendTokens();
    this.exchanged = options.exchanged ?? new ExchangedTokens();
    this.grpc = new GrpcChannels({ maxMessageBytes: options.maxBodyBytes });
  }

  /** Where failures with a correlation id are logged (the server's logger, set when it is built). */
  setLogger(log: Pick<FastifyBaseLogger, "warn" | "info">): void {
    this.log = log;
  }

  /** The plan's backend TLS, up to date: its material for a gRPC channel, or why it cannot be used now. */
  async tlsOptions(plan: Plan): Promise<ReturnType<BackendTls["channelOptions"]> | { unusable: string }> {
    if (!plan.backendTls) return {};
    const tls = this.tls.of(plan.id, plan.backendTls);
    const unusable = await tls.ready();
    return unusable === undefined ? tls.channelOptions() : { unusable };
  }

  async call(
    backend: BackendBase,
    plan: Plan,
    call: BackendRequest,
    clientHeaders: Record<string, string | string[] | undefined>,
    scope: CallScope,
  ): Promise<BackendOutcome> {
    const started = performance.now();
    const timeoutMs = Math.min(plan.backendTimeoutMs, (scope.deadline ?? Number.POSITIVE_INFINITY) - started);
    if (timeoutMs <= 0) return { kind: "timeout", ms: plan.backendTimeoutMs };
    let target: ReturnType<typeof joinBackendUrl>;
    try {
      target = joinBackendUrl(backend, call.path);
    } catch (error) {
      return { kind: "error", message: (error as Error).message };
    }
    // Fail closed: a gRPC backend is not read over HTTP, nor an HTTP one called as gRPC.
    if (isGrpcOrigin(target.origin) !== (call.grpc !== undefined))
      return {
        kind: "error",
        message: call.grpc
          ? "The plan's backend is not a gRPC server (grpc:// or grpcs://): this gRPC tool cannot call it"
          : "The plan's backend is a gRPC server: it cannot be called over HTTP",
      };
    let path = target.path;
    const headers: Record<string, string> = { ...call.headers };
    if (call.contentType) headers["content-type"] = call.contentType;
    applyHeaderPolicy(plan, clientHeaders, headers);
    const secret = plan.backendSecret;
    let bearer: string | undefined;
    let forgetBearer: (() => void) | undefined;
    if (secret?.source === "oauth2ClientCredentials" || secret?.source === "tokenExchange") {
      // The token counts against the call's time, like the wait for a connection.
      // In the request's context when its trace was dropped: the token request's span is then not made.
      const got = await withinRequest(clientHeaders, () => this.backendToken(plan, clientHeaders, scope, timeoutMs));
      if (got.kind !== "bearer") return got;
      bearer = got.token;
      forgetBearer = got.forget;
      headers.authorization = `Bearer ${bearer}`;
    } else if (secret) {
      const own = asksEachUser(secret);
      const value = own ? scope.credential : secretValue(secret);
      // Fail closed: a user's own credential is never replaced by no credential at all.
      if (value === undefined && own)
        return { kind: "error", message: "The backend needs your own credential, and none was given" };
      if (value === undefined) {
        return this.withCorrelation("The gateway has no value for the backend secret", "backend secret not set", {
          variable: secret.variable,
        });
      }
      const text = `${secret.prefix ?? ""}${value}`;
      // Fail closed: a gRPC call has no query string to carry it.
      if (secret.in === "query" && call.grpc)
        return { kind: "error", message: "The plan puts the backend secret in the query, which a gRPC call has not" };
      if (secret.in === "query")
        path += `${path.includes("?") ? "&" : "?"}${encodeURIComponent(secret.name)}=${encodeURIComponent(text)}`;
      else headers[secret.name.toLowerCase()] = text;
    }
    const options: Dispatcher.DispatchOptions = {
      method: call.method as "GET",
      path,
      headers,
      body: call.body,
      // The call's own timer (PendingCall) covers all of it: undici's would only cover the exchange.
      headersTimeout: 0,
      bodyTimeout: 0,
    };
    // Only a call that waited for a token has spent time already: the others skip reading the clock.
    const callMs = bearer === undefined ? timeoutMs : started + timeoutMs - performance.now();
    // Before the breaker's admission: an admitted call must always record its verdict (a half-open
    // breaker's trial left unrecorded would refuse every later call).
    if (callMs <= 0) return { kind: "timeout", ms: plan.backendTimeoutMs };
    let metadata: Metadata | undefined;
    if (call.grpc) {
      try {
        metadata = grpcMetadata(headers);
      } catch (error) {
        return { kind: "error", message: `The backend request is invalid: ${(error as Error).message}` };
      }
    }
    const tls = plan.backendTls ? this.tls.of(plan.id, plan.backendTls) : undefined;
    // The gateway's own material, not the backend: it never counts for the breaker.
    const unusable = tls ? await tls.ready() : undefined;
    if (unusable !== undefined)
      return this.withCorrelation(`The backend cannot be called: ${unusable}`, "backend TLS unusable", {
        plan: plan.id,
        reason: unusable,
      });
    const settings = plan.circuitBreaker ?? DEFAULT_CIRCUIT_BREAKER;
    const breaker = settings.enabled ? this.breakers.of(plan.id, target.origin) : undefined;
    let ticket: Ticket | undefined;
    if (breaker) {
      const admission = breaker.admit();
      if (isRefusal(admission)) {
        scope.onCircuit?.("refused");
        const { retryAfterSeconds, correlationId } = admission;
        return {
          kind: "unavailable",
          retryAfterSeconds,
          message:
            "The backend is unavailable: calls to it failed repeatedly, so the gateway stopped calling it for a " +
            `while. Retry in ${retryAfterSeconds} s (correlation id ${correlationId})`,
        };
      }
      ticket = admission;
    }
    const traced = tracing();
    const span = traced
      ? startBackendSpan(traced, clientHeaders, target.origin, backend.basePath, call, scope.route, {
          headers,
          metadata,
          baggage: forwardsBaggage(plan),
        })
      : undefined;
    let outcome: CallResult;
    if (call.grpc && metadata) {
      // gRPC calls multiplex on their backend's channel: no share of a pool to wait for.
      // The plan's TLS material (grpcs://): a rotation gives other material, hence another channel.
      const client = this.grpc.client(target.origin, tls?.channelOptions(), plan.id);
      const grpcOptions = { deadlineMs: callMs, maxBytes: this.maxBodyBytes };
      outcome = await sendGrpc(client, target.path, call.grpc, metadata, grpcOptions);
    } else {
      let pool: Dispatcher | (() => Dispatcher);
      if (tls) {
        // Taken when the call is sent: a rotation while it waits in its share's queue gives it the new pool.
        pool = () => tls.pool(target.origin);
      } else pool = this.pool(target.origin);
      const share = this.share(scope.share);
      outcome = await new Promise<CallResult>((resolve) => {
        share.enter(new PendingCall(pool, options, share, this.maxBodyBytes, callMs, started + timeoutMs, resolve));
      });
    }
    if (span) endBackendSpan(span, outcome);
    // undici refuses what it cannot send (a header value with CR/LF): the plan's fault, not the backend's.
    const invalid = outcome.kind === "failed" && outcome.error.code === "UND_ERR_INVALID_ARG";
    // A call that spent most of its time queued behind its tool's other calls says nothing of the
    // backend: under a burst, the gateway's own queue must not open the breaker of a backend that answers.
    const neutral = invalid || (outcome.kind === "timeout" && outcome.queued);
    if (breaker && ticket !== undefined) {
      const verdict: CallVerdict = neutral ? "neutral" : outcome.kind === "response" ? "reached" : "unreachable";
      const transition = breaker.record(ticket, verdict, settings);
      if (transition) this.reportTransition(transition, breaker, plan, target.origin, outcome, scope);
    }
    if (outcome.kind === "timeout") return { kind: "timeout", ms: plan.backendTimeoutMs };
    if (outcome.kind === "failed") {
      if (invalid) return { kind: "error", message: `The backend request is invalid: ${outcome.error.message}` };
      const { code, message: reason } = outcome.error;
      const host = plan.backendTls?.serverName ?? new URL(target.origin).hostname;
      const handshake = call.grpc
        ? await grpcTlsFailure(target.origin, tls?.channelOptions(), started + timeoutMs - performance.now())
        : !target.origin.startsWith("https:")
          ? undefined
          : tls
            ? tls.explain(outcome.error, host, outcome.answerStatus !== undefined)
            : tlsFailure(outcome.error, host);
      if (handshake !== undefined)
        return this.withCorrelation(handshake, "backend TLS failed", { backend: target.origin, code, reason });
      if (outcome.answerStatus !== undefined) {
        return this.withCorrelation(
          `The backend's answer (HTTP ${outcome.answerStatus}) was cut short: its connection closed before the end`,
          "backend answer cut short",
          { backend: target.origin, status: outcome.answerStatus, code, reason },
        );
      }
      return this.withCorrelation("The backend is unreachable", "backend unreachable", {
        backend: target.origin,
        code,
        reason,
      });
    }
    if (forgetBearer !== undefined && outcome.response.status === 401 && !scope.afterRefresh) {
      // The token may have been revoked or rotated before its expiry: one new token, one more try.
      forgetBearer();
      scope.onRetry?.("the backend refused the access token (HTTP 401): calling it once more with a new token");
      return this.call(backend, plan, call, clientHeaders, {
        ...scope,
        deadline: started + timeoutMs,
        afterRefresh: true,
      });
    }
    return outcome;
  }

  /**
   * The bearer a client-credentials or token-exchange plan sends, got within `timeoutMs`, and how
   * to drop it when the backend refuses it.
   */
  private async backendToken(
    plan: Plan,
    clientHeaders: Record<string, string | string[] | undefined>,
    scope: CallScope,
    timeoutMs: number,
  ): Promise<{ kind: "bearer"; token: string; forget: () => void } | BackendOutcome> {
    const secret = plan.backendSecret;
    const settings = secret?.clientCredentials ?? secret?.tokenExchange;
    if (!secret || !settings) return { kind: "error", message: "The plan's backend secret has no settings" };
    const clientSecret = secretValue(settings.clientSecret);
    if (clientSecret === undefined) {
      const { variable } = settings.clientSecret;
      const words = "The gateway has no value for the backend's client secret";
      return this.withCorrelation(words, "backend secret not set", { variable });
    }
    let pending: Promise<TokenOutcome>;
    let forget: (token: string) => void;
    if (secret.tokenExchange) {
      const subjectToken = bearerToken(clientHeaders);
      // Fail closed: without the caller's validated token there is nothing to exchange.
      if (scope.caller === undefined || subjectToken === undefined)
        return { kind: "error", message: "The backend needs a token exchanged for the caller's, and there is none" };
      const subject = { user: scope.caller, token: subjectToken, validUntilMs: scope.callerValidUntilMs };
      pending = this.exchanged.token(plan.id, secret.tokenExchange, clientSecret, subject);
      forget = (token) => this.exchanged.invalidate(plan.id, subject, token);
    } else {
      pending = this.tokens.token(plan.id, settings as ClientCredentials, clientSecret);
      forget = (token) => this.tokens.invalidate(plan.id, token);
    }
    const got = await withinMs(pending, timeoutMs);
    if (got === undefined) return { kind: "timeout", ms: plan.backendTimeoutMs };
    if (got.kind === "error") return this.tokenFailure(got, plan);
    return { kind: "bearer", token: got.token, forget: () => forget(got.token) };
  }

  private tokenFailure(failure: TokenFailure, plan: Plan): BackendOutcome {
    return this.withCorrelation(failure.forClient, failure.forLog, { plan: plan.id, ...failure.details });
  }

  /** The log learns where and why a breaker opened (under the id refused calls quote), and when it closed. */
  private reportTransition(
    transition: CircuitTransition,
    breaker: CircuitBreaker,
    plan: Plan,
    origin: string,
    last: CallResult,
    scope: CallScope,
  ): void {
    if (transition === "opened") {
      const settings = plan.circuitBreaker ?? DEFAULT_CIRCUIT_BREAKER;
      this.log?.warn(
        {
          correlationId: breaker.correlationId,
          plan: plan.id,
          backend: origin,
          lastFailure: last.kind === "failed" ? (last.error.code ?? last.error.message) : last.kind,
          consecutiveFailures: settings.consecutiveFailures,
          coolDownSeconds: settings.coolDownSeconds,
        },
        "backend circuit opened: calls fail fast for the cool-down",
      );
    } else {
      this.log?.info({ plan: plan.id, backend: origin }, "backend circuit closed: a trial call reached the backend");
    }
    scope.onCircuit?.(transition);
  }

  async close(): Promise<void> {
    this.grpc.close();
    await Promise.all([...[...this.pools.values()].map((pool) => pool.close()), this.tls.close()]);
    this.pools.clear();
  }

  /** The client learns what failed and a correlation id; the log learns, under that id, where and why. */
  private withCorrelation(forClient: string, forLog: string, details: Record<string, unknown>): BackendOutcome {
    const correlationId = randomBytes(8).toString("hex");
    this.log?.warn({ correlationId, ...details }, forLog);
    return { kind: "error", message: `${forClient} (correlation id ${correlationId})` };
  }

  private pool(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connections: POOL_CONNECTIONS, keepAliveTimeout: KEEP_ALIVE_MS, pipelining: 1 });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  private share(key: object): Share {
    let share = this.shares.get(key);
    if (!share) {
      share = new Share();
      this.shares.set(key, share);
    }
    return share;
  }
}

/** One share of the pool: at most SHARE_CONNECTIONS calls in flight, the others waiting in order. */
class Share {
  private active = 0;
  private readonly waiting: PendingCall[] = [];

  enter(call: PendingCall): void {
    if (this.active < SHARE_CONNECTIONS) this.start(call);
    else this.waiting.push(call);
  }

  private start(call: PendingCall): void {
    this.active++;
    call.started = true;
    call.send();
  }

  /** A started call settled: its slot goes to the next call still waiting. */
  leave(): void {
    this.active--;
    if (this.waiting.length === 0) return;
    const now = performance.now(); // read only when calls queue: a call that gets its slot at once never does
    let next = this.waiting.shift();
    // Calls that timed out while waiting settled without a slot; one whose time is up is not sent
    // either (its timer may fire just after the slot's previous holder's, in the same tick).
    while (next && (next.settled || next.expireBy(now))) next = this.waiting.shift();
    if (!next) return;
    next.dequeuedAt = now;
    this.start(next);
  }
}

type CallResult =
  | { kind: "response"; response: BackendResponse }
  /** `queued`: it held its share's slot for less than half its time (or never), waiting behind the tool's other calls. */
  | { kind: "timeout"; queued: boolean }
  /** `answerStatus`: the backend's answer had begun (status and headers read) when the connection failed. */
  | { kind: "failed"; error: Error & { code?: string }; answerStatus?: number };

/**
 * One backend call from entering its share to its outcome: the timer of the whole call, and
 * undici's handler collecting status, headers and at most `max` bytes of body (the rest is not
 * read). undici's dispatch API rather than `request()`: no Readable stream and async iterator per
 * response, which were most of the garbage a proxied call left behind.
 */
class PendingCall implements Dispatcher.DispatchHandler {
  settled = false;
  /** Holds a slot of its share (a call that times out while waiting never does). */
  started = false;
  /** When it left its share's queue for a slot; undefined when it got one at once. */
  dequeuedAt: number | undefined;
  /** The pool, or what gives it when the call is sent. */
  private readonly pool: Dispatcher | (() => Dispatcher);
  private readonly options: Dispatcher.DispatchOptions;
  private readonly share: Share;
  private controller: Dispatcher.DispatchController | undefined;
  private readonly timer: NodeJS.Timeout;
  /** `performance.now()` by which it must be settled. */
  private readonly deadline: number;
  private status = 0;
  private headers: BackendResponse["headers"] = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly max: number;
  private readonly resolve: (result: CallResult) => void;

  constructor(
    pool: Dispatcher | (() => Dispatcher),
    options: Dispatcher.DispatchOptions,
    share: Share,
    max: number,
    timeoutMs: number,
    deadline: number,
    resolve: (result: CallResult) => void,
  ) {
    this.deadline = deadline;
    this.pool = pool;
    this.options = options;
    this.share = share;
    this.max = max;
    this.resolve = resolve;
    this.timer = setTimeout(() => {
      const queued =
        !this.started || (this.dequeuedAt !== undefined && performance.now() - this.dequeuedAt < timeoutMs / 2);
      this.settle({ kind: "timeout", queued });
      this.controller?.abort(new Error("backend timeout"));
    }, timeoutMs);
  }

  /** A waiting call whose time is up at `now` (within a timer's 1 ms granularity) times out without being sent. */
  expireBy(now: number): boolean {
    if (now < this.deadline - 1) return false;
    this.settle({ kind: "timeout", queued: true });
    return true;
  }

  send(): void {
    try {
      (typeof this.pool === "function" ? this.pool() : this.pool).dispatch(this.options, this);
    } catch (error) {
      this.settle({ kind: "failed", error: error as Error });
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController) {
    this.controller = controller;
    // Timed out while queued in the pool: it is not sent.
    if (this.settled) controller.abort(new Error("backend timeout"));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: BackendResponse["headers"]) {
    this.status = status;
    this.headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer) {
    if (this.settled) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size < this.max) return;
    this.finish(true);
    controller.abort(new Error("response body over the gateway's read limit"));
  }

  onResponseEnd() {
    this.finish(false);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error) {
    // ignored after our own abort (timeout, read cap)
    this.settle({ kind: "failed", error, ...(this.status === 0 ? {} : { answerStatus: this.status }) });
  }

  private finish(truncated: boolean) {
    if (this.settled) return;
    const body = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size);
    this.settle({
      kind: "response",
      response: {
        status: this.status,
        headers: this.headers,
        body: truncated ? body.subarray(0, this.max) : body,
        ...(truncated ? { truncated } : {}),
      },
    });
  }

  private settle(result: CallResult) {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    if (this.started) this.share.leave();
    this.resolve(result);
  }
}

/** The client's `baggage` goes on to the backend only when the plan forwards that header. */
function forwardsBaggage(plan: Plan): boolean {
  return plan.headerPolicy?.forwardRequestHeaders?.some((name) => name.toLowerCase() === "baggage") ?? false;
}

function applyHeaderPolicy(
  plan: Plan,
  client: Record<string, string | string[] | undefined>,
  headers: Record<string, string>,
) {
  const policy = plan.headerPolicy;
  if (!policy) return;
  for (const name of policy.forwardRequestHeaders ?? []) {
    // Never the caller's token (the schema refuses this too): the backend gets one of the user's own.
    const source = plan.backendSecret?.source;
    if ((source === "tokenExchange" || source === "oauth2AuthorizationCode") && name.toLowerCase() === "authorization")
      continue;
    const value = client[name.toLowerCase()];
    if (value === undefined) continue;
    const target =
      Object.entries(policy.renameRequestHeaders ?? {}).find(
        ([from]) => from.toLowerCase() === name.toLowerCase(),
      )?.[1] ?? name;
    // A header the call built from its arguments (a plan's fixed argument among them) is the
    // call's own: a forwarded client header never replaces it.
    if (Object.hasOwn(headers, target.toLowerCase())) continue;
    headers[target.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  for (const [name, value] of Object.entries(policy.setRequestHeaders ?? {})) headers[name.toLowerCase()] = value;
}
