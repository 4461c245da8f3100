/**
 * Client spans for the database calls made within a traced operation (a REST request, a change
 * being published), when tracing is on: the drivers' query functions are wrapped on the objects
 * this control plane owns (its pg pool's clients, its PGlite instance and its transactions).
 * A span names the operation and, for a plain statement, the table; never the statement's text
 * or its parameters (password hashes, encrypted secrets). Calls outside any span (the change
 * hub's polling, migrations) make none: a root span every poll would only be noise.
 */

import { endWithError, type Span, SpanKind, trace, tracing } from "@atrium/contract/telemetry";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type pg from "pg";

type Query = (...args: unknown[]) => unknown;

/** The first word of a statement (SELECT, INSERT, COMMIT…), and the table of a plain one. */
export function describeStatement(text: string): { operation: string; collection?: string } {
  const statement = text.trimStart();
  const operation = (/^[a-z]+/i.exec(statement)?.[0] ?? "").toUpperCase();
  const table = /^(?:select\b.*?\bfrom|insert\s+into|update|delete\s+from)\s+"([a-z_]+)"/is.exec(statement)?.[1];
  return table ? { operation, collection: table } : { operation };
}

function startQuerySpan(args: unknown[]): Span | undefined {
  const traced = tracing();
  if (!traced || !trace.getActiveSpan()) return undefined;
  const first = args[0];
  const text = typeof first === "string" ? first : ((first as { text?: unknown } | undefined)?.text ?? "");
  const { operation, collection } = describeStatement(typeof text === "string" ? text : "");
  return traced.tracer.startSpan(collection ? `${operation} ${collection}` : operation || "query", {
    kind: SpanKind.CLIENT,
    attributes: {
      "db.system.name": "postgresql",
      ...(operation ? { "db.operation.name": operation } : {}),
      ...(collection ? { "db.collection.name": collection } : {}),
    },
  });
}

function endQuerySpan(span: Span, error: unknown): void {
  if (error === undefined) {
    span.end();
    return;
  }
  // The SQLSTATE (e.g. 23505): never the message, which may quote a value.
  const code = (error as { code?: unknown }).code;
  endWithError(span, typeof code === "string" && code ? code : "Error");
}

/** `query` made to record a span around each call, promise or callback style (pg's pool uses callbacks). */
function tracedQuery(query: Query): Query {
  return function (this: unknown, ...args: unknown[]) {
    const span = startQuerySpan(args);
    if (!span) return query.apply(this, args);
    const callback = args.at(-1);
    if (typeof callback === "function") {
      args[args.length - 1] = (error: unknown, ...rest: unknown[]) => {
        endQuerySpan(span, error ?? undefined);
        return callback(error, ...rest);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    if (!(result instanceof Promise)) {
      span.end();
      return result;
    }
    result.then(
      () => endQuerySpan(span, undefined),
      (error: unknown) => endQuerySpan(span, error ?? "Error"),
    );
    return result;
  };
}

/** Traces the queries of every client the pool opens (drizzle's calls and the pool's own `query`). */
export function traceDatabasePool(pool: pg.Pool): void {
  if (!tracing()) return;
  pool.on("connect", (client) => {
    client.query = tracedQuery(client.query as Query) as typeof client.query;
  });
}

/** Traces an embedded database's queries, those of its transactions included. */
export function traceEmbeddedDatabase(client: PGlite): void {
  if (!tracing()) return;
  const wrap = (target: PGlite | Transaction) => {
    target.query = tracedQuery(target.query as Query) as typeof target.query;
    target.exec = tracedQuery(target.exec as Query) as typeof target.exec;
  };
  wrap(client);
  const transaction = client.transaction.bind(client);
  client.transaction = (work) =>
    transaction((tx) => {
      wrap(tx);
      return work(tx);
    });
}
