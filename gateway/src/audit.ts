/**
 * Audit events of plans with `audit: true`: one per authentication decision, one per tool call,
 * one per call refused by the plan's limits and one per opening or closing of the backend circuit
 * breaker, with ECS field names, as JSON lines on a logger of their own (a file, or standard
 * output), and as OTLP log records when OTEL_EXPORTER_OTLP_ENDPOINT is set (the OpenTelemetry
 * SDK's exporter). An event never holds a token, a key or an argument value: only who, what,
 * where and how it ended.
 */
import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { requestTraceId } from "@atrium/contract/telemetry";
import { SeverityNumber } from "@opentelemetry/api";
import { OTLPLogExporter } from "@opentelemetry/exporter-logs-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchLogRecordProcessor, LoggerProvider } from "@opentelemetry/sdk-logs";
import pino, { type DestinationStream } from "pino";
import type { TokenPrincipal } from "./auth/bearer.ts";
import type { AuthFailureReason } from "./auth/refusals.ts";
import type { CircuitTransition } from "./circuit-breaker.ts";
import type { LimitRefusal } from "./limits.ts";
import type { ToolOutcomeWord } from "./metrics.ts";
import type { ServedExposition } from "./registry.ts";

/** Where one request came from, and the trace it belongs to. */
export interface AuditOrigin {
  sourceIp: string;
  traceId: string;
}

export interface AuthenticationAudit {
  served: ServedExposition;
  origin: AuditOrigin;
  mode: "apiKey" | "oauth";
  status: number;
  reason?: AuthFailureReason;
  principal?: TokenPrincipal;
  /** The tool a call named, for a refusal on a tool's scopes. */
  tool?: string;
}

export interface ToolCallAudit {
  served: ServedExposition;
  origin: AuditOrigin;
  tool: string;
  /** The backend's HTTP status, or what happened instead. */
  outcome: number | ToolOutcomeWord;
  principal?: TokenPrincipal;
}

export interface LimitAudit {
  served: ServedExposition;
  origin: AuditOrigin;
  refusal: LimitRefusal;
  /** The tool called; undefined for a resource read. */
  tool?: string;
  principal?: TokenPrincipal;
}

export interface CircuitAudit {
  served: ServedExposition;
  /** The request whose backend call opened or closed the breaker. */
  origin: AuditOrigin;
  transition: CircuitTransition;
}

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** The W3C trace id of the request: its server span's with tracing on, else its `traceparent`'s, or a new one. */
export function traceIdOf(headers: IncomingHttpHeaders): string {
  // With tracing on, the request's own trace (which continues the client's, `_meta` included).
  const traced = requestTraceId(headers);
  if (traced) return traced;
  const match = typeof headers.traceparent === "string" ? TRACEPARENT.exec(headers.traceparent) : null;
  return match?.[1] && !/^0+$/.test(match[1]) ? match[1] : randomBytes(16).toString("hex");
}

type Event = Record<string, unknown>;

function common(served: ServedExposition, origin: AuditOrigin, principal: TokenPrincipal | undefined): Event {
  const { exposition } = served;
  return {
    "@timestamp": new Date().toISOString(),
    ...(principal ? { user: { id: principal.subject } } : {}),
    organization: { id: exposition.organization.id, name: exposition.organization.name },
    source: { ip: origin.sourceIp },
    trace: { id: origin.traceId },
  };
}

export function authenticationEvent(audit: AuthenticationAudit): Event {
  const success = audit.reason === undefined;
  const { exposition } = audit.served;
  return {
    ...common(audit.served, audit.origin, audit.principal),
    message: success ? "client authenticated" : `client refused: ${audit.reason}`,
    event: {
      kind: "event",
      category: "authentication",
      action: "authentication",
      outcome: success ? "success" : "failure",
      ...(success ? {} : { reason: audit.reason }),
    },
    http: { response: { status_code: audit.status } },
    atrium: {
      exposition: { id: exposition.id, name: exposition.name },
      auth: { mode: audit.mode, ...(exposition.plan.oauth ? { issuer: exposition.plan.oauth.issuer } : {}) },
      ...(audit.tool ? { tool: { name: audit.tool } } : {}),
    },
  };
}

type BackendSecret = NonNullable<ServedExposition["exposition"]["plan"]["backendSecret"]>;

/**
 * Which backend identity a call used, never a credential: the caller a token was exchanged for or
 * whose own grant or elicited credential was used (without OAuth, the 2025 session's: its id is a
 * credential, so only the word), the client id of client credentials, or where a fixed secret lives.
 */
export function backendSubject(secret: BackendSecret, principal: TokenPrincipal | undefined): Event {
  switch (secret.source) {
    case "tokenExchange":
    case "oauth2AuthorizationCode":
    case "elicit":
      return principal ? { kind: "user", issuer: principal.issuer, id: principal.subject } : { kind: "session" };
    case "oauth2ClientCredentials":
      return { kind: "client", id: secret.clientCredentials?.clientId ?? "" };
    case "env":
      return { kind: "env", id: secret.variable ?? "" };
    case "value":
      return secret.secretId ? { kind: "secret", id: secret.secretId } : { kind: "secret" };
  }
}

export function toolCallEvent(audit: ToolCallAudit): Event {
  const { exposition } = audit.served;
  const backendStatus = typeof audit.outcome === "number" ? audit.outcome : undefined;
  const success = audit.outcome === "local" || (backendStatus !== undefined && backendStatus < 400);
  return {
    ...common(audit.served, audit.origin, audit.principal),
    message: `tool ${audit.tool} called`,
    event: {
      kind: "event",
      category: "api",
      action: "tool_call",
      outcome: success ? "success" : "failure",
      ...(success ? {} : { reason: backendStatus === undefined ? String(audit.outcome) : "backend_error" }),
    },
    http: { response: { status_code: 200 } },
    atrium: {
      exposition: { id: exposition.id, name: exposition.name },
      ...(exposition.plan.oauth ? { auth: { mode: "oauth", issuer: exposition.plan.oauth.issuer } } : {}),
      tool: { name: audit.tool, ...(backendStatus !== undefined ? { backend_status_code: backendStatus } : {}) },
      ...(exposition.plan.backendSecret
        ? {
            backend: {
              credential_source: exposition.plan.backendSecret.source,
              subject: backendSubject(exposition.plan.backendSecret, audit.principal),
            },
          }
        : {}),
    },
  };
}

export function circuitEvent(audit: CircuitAudit): Event {
  const { exposition } = audit.served;
  const { consecutiveFailures, coolDownSeconds } = exposition.plan.circuitBreaker;
  const opened = audit.transition === "opened";
  return {
    ...common(audit.served, audit.origin, undefined),
    message: opened
      ? `backend circuit opened: calls fail fast for ${coolDownSeconds} s`
      : "backend circuit closed: a trial call reached the backend",
    event: {
      kind: "event",
      category: "network",
      action: opened ? "backend_circuit_opened" : "backend_circuit_closed",
      outcome: opened ? "failure" : "success",
    },
    atrium: {
      exposition: { id: exposition.id, name: exposition.name },
      plan: { id: exposition.plan.id, name: exposition.plan.name },
      circuit_breaker: { consecutive_failures: consecutiveFailures, cool_down_seconds: coolDownSeconds },
    },
  };
}

export function limitEvent(audit: LimitAudit): Event {
  const { exposition } = audit.served;
  const { scope, kind, limit, retryAfterSeconds } = audit.refusal;
  return {
    ...common(audit.served, audit.origin, audit.principal),
    message: `call refused by the ${scope} ${kind} limit: retry in ${retryAfterSeconds} s`,
    event: {
      kind: "event",
      category: "api",
      action: "call_limited",
      outcome: "failure",
      reason: `${kind}_limit`,
    },
    // A tool's limit answers with an isError result inside a 200.
    http: { response: { status_code: scope === "tool" ? 200 : 429 } },
    atrium: {
      exposition: { id: exposition.id, name: exposition.name },
      limit: { scope, kind, value: limit, retry_after_seconds: retryAfterSeconds },
      ...(audit.tool ? { tool: { name: audit.tool } } : {}),
    },
  };
}

/** `{ a: { b: 1 } }` → `{ "a.b": 1 }`: OTLP attributes are flat. */
function flatten(value: Event, prefix = "", into: Record<string, string | number> = {}) {
  for (const [key, inner] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof inner === "object" && inner !== null) flatten(inner as Event, name, into);
    else if (typeof inner === "string" || typeof inner === "number") into[name] = inner;
  }
  return into;
}

export interface AuditSinkOptions {
  /** A file to append JSON lines to; standard output when absent. */
  file?: string;
  /** A stream instead (tests). */
  stream?: DestinationStream;
  /** Send OTLP logs too (the exporter reads the OTEL_EXPORTER_OTLP_* variables). */
  otlp?: boolean;
  serviceVersion?: string;
}

export class AuditLog {
  private readonly lines: DestinationStream;
  private readonly provider: LoggerProvider | undefined;
  private readonly otlp: ReturnType<LoggerProvider["getLogger"]> | undefined;

  constructor(options: AuditSinkOptions = {}) {
    // The event is the whole line (no level, time or host fields of a logger's own), written
    // through pino's buffered destination.
    this.lines =
      options.stream ?? pino.destination({ dest: options.file ?? 1, mkdir: Boolean(options.file), sync: false });
    if (options.otlp) {
      this.provider = new LoggerProvider({
        resource: resourceFromAttributes({
          "service.name": "atrium-gateway",
          ...(options.serviceVersion ? { "service.version": options.serviceVersion } : {}),
        }),
        processors: [new BatchLogRecordProcessor({ exporter: new OTLPLogExporter() })],
      });
      this.otlp = this.provider.getLogger("atrium.audit");
    }
  }

  authentication(audit: AuthenticationAudit): void {
    this.write(authenticationEvent(audit));
  }

  toolCall(audit: ToolCallAudit): void {
    this.write(toolCallEvent(audit));
  }

  limited(audit: LimitAudit): void {
    this.write(limitEvent(audit));
  }

  circuit(audit: CircuitAudit): void {
    this.write(circuitEvent(audit));
  }

  private write(event: Event): void {
    this.lines.write(`${JSON.stringify(event)}\n`);
    const { message, ...fields } = event;
    this.otlp?.emit({
      severityNumber: SeverityNumber.INFO,
      severityText: "INFO",
      body: message as string,
      attributes: flatten(fields),
    });
  }

  /** Sends what is buffered (OTLP batches, file writes). */
  async close(): Promise<void> {
    await this.provider?.shutdown();
    try {
      (this.lines as DestinationStream & { flushSync?: () => void }).flushSync?.();
    } catch {
      // Not open yet: nothing was written.
    }
  }
}
