/**
 * The control plane's REST API (`/api/v1`) as the operator uses it: the shared client of
 * @atrium/contract over an undici Pool, authenticated with the operator's API token, reading
 * every record with the contract's view of its collection. A refused token is read again once
 * (it may have been rotated); no answer (or a 502/503/504) becomes CONTROL_PLANE_UNREACHABLE and
 * refusals keep the problem document's code and detail.
 */
import {
  customToolsRecord,
  expositionBody,
  expositionView,
  gatewayGroupBody,
  gatewayGroupView,
  listOf,
  organizationView,
  planBody,
  planWithKey,
  promptsRecord,
  resourcesRecord,
  secretBody,
  secretValueBody,
  secretView,
  serviceBody,
  serviceView,
} from "@atrium/contract/rest";
import {
  RestClient,
  type RestMethod,
  RestProblemError,
  RestUnreachableError,
  segment,
} from "@atrium/contract/rest-client";
import { Pool } from "undici";
import type { z } from "zod";
import { errors } from "../errors.ts";
import type { TokenSource } from "../token.ts";

/** What every record the operator manages has in common. */
export interface ControlPlaneRecord {
  id: string | number;
  name: string;
}

/**
 * A collection the operator writes: its path, the contract's view of one of its records and the
 * contract's body of a create (and of a replace, unless `replaceBody` gives another), so what the
 * operator sends is typed by the same schemas the control plane reads it with.
 */
export interface Collection<V extends ControlPlaneRecord = ControlPlaneRecord, B = unknown, R = B> {
  path: string;
  view: z.ZodType<V>;
  body: z.ZodType<unknown, B>;
  replaceBody?: z.ZodType<unknown, R>;
}

/** Where a collection's records are read and deleted: no body involved. */
export type RecordPlace<V extends ControlPlaneRecord = ControlPlaneRecord> = Pick<Collection<V>, "path" | "view">;

/** The collections the eight kinds reconcile into. */
export const collections = {
  services: { path: "/services", view: serviceView, body: serviceBody },
  gatewayGroups: { path: "/gateway-groups", view: gatewayGroupView, body: gatewayGroupBody },
  // A secret's value is replaced alone; its name stays.
  secrets: { path: "/secrets", view: secretView, body: secretBody, replaceBody: secretValueBody },
  // Create, replace and renew answer with the new API key; reads have none.
  configurationPlans: { path: "/configuration-plans", view: planWithKey, body: planBody },
  expositions: { path: "/expositions", view: expositionView, body: expositionBody },
  customTools: customToolsRecord,
  resources: resourcesRecord,
  prompts: promptsRecord,
} satisfies Record<string, Collection>;

export interface ControlPlaneClientOptions {
  /** Base URL, e.g. https://atrium.example.com (the API is under /api/v1). */
  url: string;
  token: TokenSource;
  connections?: number;
  timeoutMs?: number;
  /** Called after every answered request, for metrics. */
  onResponse?: (method: string, status: number) => void;
}

export class ControlPlaneClient {
  readonly #pool: Pool;
  readonly #rest: RestClient;
  readonly #token: TokenSource;

  constructor(options: ControlPlaneClientOptions) {
    const timeoutMs = options.timeoutMs ?? 15_000;
    this.#token = options.token;
    this.#pool = new Pool(new URL(options.url).origin, {
      connections: options.connections ?? 16,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    this.#rest = new RestClient({
      baseUrl: options.url,
      token: () => options.token.get(),
      timeoutMs,
      dispatcher: this.#pool,
      ...(options.onResponse ? { onResponse: options.onResponse } : {}),
    });
  }

  /** A record; undefined when it does not exist (404). */
  get<V extends ControlPlaneRecord>(collection: RecordPlace<V>, id: string | number): Promise<V | undefined> {
    return this.#send("GET", `${collection.path}/${segment(id)}`, collection.view, { tolerate: [404] });
  }

  async list<V extends ControlPlaneRecord>(collection: RecordPlace<V>): Promise<V[]> {
    return (await this.#send("GET", collection.path, listOf(collection.view))).items;
  }

  create<V extends ControlPlaneRecord, B>(collection: Collection<V, B, unknown>, body: B): Promise<V> {
    return this.#send("POST", collection.path, collection.view, { body });
  }

  replace<V extends ControlPlaneRecord, B, R>(
    collection: Collection<V, B, R>,
    id: string | number,
    body: R,
  ): Promise<V> {
    return this.#send("PUT", `${collection.path}/${segment(id)}`, collection.view, { body });
  }

  /** A new API key for a plan (the old one stops working). */
  renewApiKey(planId: string) {
    return this.#send("POST", `${collections.configurationPlans.path}/${segment(planId)}/renew-api-key`, planWithKey);
  }

  /** The organization the operator's token belongs to. */
  organization() {
    return this.#send("GET", "/organization", organizationView);
  }

  /** Deletes a record; false when it was already gone (404). */
  async remove(collection: RecordPlace, id: string | number): Promise<boolean> {
    return this.#call(() => this.#rest.delete(`${collection.path}/${segment(id)}`, { tolerate: [404] }));
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }

  #send<S extends z.ZodType>(
    method: RestMethod,
    path: string,
    answer: S,
    more: { body?: unknown; tolerate?: number[] } = {},
  ): Promise<z.output<S>> {
    return this.#call(() => this.#rest.send(method, path, { ...more, answer }) as Promise<z.output<S>>);
  }

  /** One call, again once after a refused token; failures as the operator's coded errors. */
  async #call<T>(call: () => Promise<T>): Promise<T> {
    try {
      try {
        return await call();
      } catch (error) {
        if (!(error instanceof RestProblemError && error.status === 401)) throw error;
        // The Secret may hold a rotated token by now: read it again once.
        this.#token.invalidate();
        return await call();
      }
    } catch (error) {
      throw operatorError(error);
    }
  }
}

function operatorError(error: unknown): unknown {
  if (error instanceof RestUnreachableError) return errors.controlPlaneUnreachable(error.message);
  if (!(error instanceof RestProblemError)) return error;
  const { method, path, status, problem, text } = error;
  const detail = problem?.detail ?? problem?.title ?? (text.slice(0, 500) || "no detail");
  if (status === 502 || status === 503 || status === 504) {
    return errors.controlPlaneUnreachable(`${method} ${path} answered ${status}: ${detail}`);
  }
  return errors.controlPlaneRejected(method, path, status, problem?.code ?? "UNKNOWN", detail);
}
