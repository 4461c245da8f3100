/**
 * The REST client (openapi-fetch over the generated types: a path or field the API lacks does not
 * compile) and the signed-in session it sends as a bearer token. The session lives in
 * sessionStorage: it ends with the tab, and a 401 from any call ends it at once.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "../api/generated/schema.d.ts";

export type Problem = components["schemas"]["Problem"];

export interface Session {
  token: string;
  expiresAt: string;
  organization: string;
  username: string;
}

const SESSION_KEY = "atrium.session";

export function readSession(): Session | undefined {
  try {
    const session = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? "null") as Session | null;
    if (!session || Date.parse(session.expiresAt) <= Date.now()) return undefined;
    return session;
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session | undefined): void {
  if (session) sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(SESSION_KEY);
}

/** Called when the control plane refuses the session's token (expired, revoked, signed out elsewhere). */
let onSessionEnded: () => void = () => {};
export function whenSessionEnds(listener: () => void): void {
  onSessionEnded = listener;
}

export const api = createClient<paths>({ baseUrl: "" });
api.use({
  onRequest({ request }) {
    const session = readSession();
    if (session && !request.url.endsWith("/api/v1/login"))
      request.headers.set("authorization", `Bearer ${session.token}`);
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && !request.url.endsWith("/api/v1/login")) {
      saveSession(undefined);
      onSessionEnded();
    }
    return response;
  },
});

/** Where an imported document is wrong: the importer's `location` member of a problem. */
export type SourceLocation = NonNullable<Problem["location"]>;

/** A failure in words: the problem's detail, each field's message, or what happened to the request. */
export function describeFailure(problem: Problem | undefined, response: Response | undefined): string {
  if (problem?.detail) {
    const fields = (problem.errors ?? []).filter((e) => !problem.detail?.includes(e.message));
    return [problem.detail, ...fields.map((e) => `${e.field}: ${e.message}`)].join(" — ");
  }
  if (response) return `The control plane answered ${response.status} ${response.statusText}`.trim();
  return "The control plane did not answer: check that it is running, then try again";
}

/** Runs a call, turning a network failure into the same shape as an answered one. */
export async function attempt<T extends { error?: unknown; response: Response }>(
  call: () => Promise<T>,
): Promise<T | { data?: undefined; error: undefined; response: undefined }> {
  try {
    return await call();
  } catch {
    return { error: undefined, response: undefined };
  }
}
