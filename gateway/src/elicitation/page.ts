/**
 * The elicitation page (issue 15): `GET /elicitations/:id` shows the form the flow's URL points
 * to, `POST /elicitations/:id` (form-urlencoded) stores the credential, or with
 * `intent=revoke` removes the user's stored one. Server-rendered, no script (page-html.ts).
 *
 * The id is single-use across replicas: the control plane's consume succeeds once (pending
 * elicitations), and only then is the credential sealed and stored for the elicitation's
 * Exposition and user (its digest). An unknown id, or one whose Exposition this gateway no longer
 * serves with an elicited secret, is a 404; a used or expired one a 410; neither says more. Every
 * answer is `no-store`, never framed, sends no referrer, and allows no script (PAGE_HEADERS). The
 * form is CSRF-protected (page-csrf.ts). The body is limited to PAGE_BODY_LIMIT and parsed only
 * here; nothing logs it, and a refused credential is never written back into the page.
 *
 * When the plan has `elicit.signIn`, the form and every submit also need the user signed in as
 * the elicitation's own user (sign-in.ts): the page redirects to the authorization server, and
 * `GET /elicitations/callback` brings the user back.
 *
 * When the plan's secret is `oauth2AuthorizationCode`, there is no form: the page sends the user to
 * the backend's authorization server (backend-grant.ts), `GET /elicitations/authorized` brings
 * them back with a code, and the grant it is exchanged for is stored as the elicitation's
 * credential (the id consumed first, as for a submit). The page then offers to revoke it, which
 * forgets it and revokes it at the authorization server (RFC 7009) when that offers revocation.
 */
import type { ElicitationView } from "@atrium/contract/rest";
import { AUTHORIZATION_CALLBACK_PATH } from "@atrium/crds";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { CompiledExposition } from "../tools/source.ts";
import type { AuthorizationCodeSettings } from "./backend-grant.ts";
import { credentialScope, ELICITED_CREDENTIAL_MAX_BYTES, principalDigest } from "./credential-store.ts";
import { isElicitationId } from "./elicitation-id.ts";
import type { ElicitationServices } from "./flow.ts";
import { csrfHolds, formToken } from "./page-csrf.ts";
import {
  authorizedPage,
  CSRF_PAGE,
  credentialForm,
  FORM_ERRORS,
  type FormError,
  GONE_PAGE,
  NOT_FOUND_PAGE,
  NOT_STORED_PAGE,
  PAGE_CSP,
  type PageSubject,
  revokedPage,
  SIGN_IN_PAGES,
  signInRefusedPage,
  storedPage,
  UNAVAILABLE_PAGE,
} from "./page-html.ts";
import { type ElicitationSignIn, SIGN_IN_CALLBACK_PATH, type SignInRefused, type SignInSettings } from "./sign-in.ts";

/** The page's query flag asking the authorization server for a new login (`prompt=login`). */
const REAUTHENTICATE = "sign-in-again";

/** Largest form body: a credential of the largest size, percent-encoded, and the small fields. */
export const PAGE_BODY_LIMIT = ELICITED_CREDENTIAL_MAX_BYTES * 3 + 1024;

export const PAGE_HEADERS = {
  "cache-control": "no-store",
  "content-security-policy": PAGE_CSP,
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
} as const;

export interface ElicitationPageParts {
  services: ElicitationServices;
  /** The Exposition as this gateway serves it. */
  exposition(id: string): CompiledExposition | undefined;
  /** The sign-in of plans with `elicit.signIn`; without it, their pages are refused (fail closed). */
  signIn?: ElicitationSignIn;
}

/** Where the user signs in first, when the plan says so (`elicit.signIn`, which needs `oauth`). */
export function signInSettings(exposition: CompiledExposition): SignInSettings | undefined {
  const secret = exposition.plan.backendSecret;
  if (secret?.source !== "elicit" || !secret.signIn) return undefined;
  const oauth = exposition.plan.oauth;
  // The schema refuses it; a page that cannot sign in must not take a credential either.
  if (!oauth) throw new Error("the plan's elicit.signIn has no oauth issuer to sign in at");
  return { issuer: oauth.issuer, jwksUri: oauth.jwksUri, clientId: secret.signIn.clientId };
}

/** What the page names, when the Exposition's plan elicits its backend secret. */
export function pageSubject(exposition: CompiledExposition | undefined, tool: string): PageSubject | undefined {
  const secret = exposition?.plan.backendSecret;
  if (!exposition || (secret?.source !== "elicit" && secret?.source !== "oauth2AuthorizationCode")) return undefined;
  const backend = credentialScope(exposition).backend;
  return {
    exposition: exposition.name,
    organization: exposition.organization.name,
    description:
      secret.source === "elicit"
        ? (secret.description ?? "Your credential for the backend")
        : (secret.authorizationCode?.description ?? `Authorize ${backend} to act for you`),
    tool,
    backend,
    placement: { in: secret.in, name: secret.name, prefix: secret.prefix },
  };
}

type Found =
  | {
      kind: "open";
      elicitation: ElicitationView;
      exposition: CompiledExposition;
      subject: PageSubject;
      used: boolean;
      signIn: SignInSettings | undefined;
      /** The backend's authorization server, when the user authorizes it rather than gives a credential. */
      grant: AuthorizationCodeSettings | undefined;
    }
  | { kind: "not-found" }
  | { kind: "gone" };

type Params = { Params: { id: string } };

export async function elicitationPage(app: FastifyInstance, parts: ElicitationPageParts): Promise<void> {
  const { keyring, store, pending, grants } = parts.services;

  async function find(id: string): Promise<Found> {
    if (!isElicitationId(id)) return { kind: "not-found" };
    const elicitation = await pending.read(id);
    if (!elicitation) return { kind: "not-found" };
    const exposition = parts.exposition(elicitation.expositionId);
    const subject = pageSubject(exposition, elicitation.tool);
    if (!exposition || !subject) return { kind: "not-found" };
    if (Date.parse(elicitation.expiresAt) <= Date.now()) return { kind: "gone" };
    const signIn = signInSettings(exposition);
    // Fail closed: a page that cannot sign the user in takes no credential (the error handler's 503).
    if (signIn && !parts.signIn) throw new Error("this gateway cannot sign users in for the elicitation page");
    const used = elicitation.usedAt !== null;
    return { kind: "open", elicitation, exposition, subject, used, signIn, grant: grantSettings(exposition) };
  }

  /** Whether the plan lets this browser at the form: no sign-in asked, or one that matched the elicitation's user. */
  function signedIn(request: FastifyRequest<Params>, found: Found & { kind: "open" }): boolean {
    return (
      !found.signIn || (parts.signIn?.proofHolds(request, request.params.id, found.elicitation.principal) ?? false)
    );
  }

  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.status(status).type("text/html; charset=utf-8").send(body);

  /** The refusal's page; its link opens the elicitation again, asking for a new login after another user's. */
  const refusedSignIn = (reply: FastifyReply, refused: SignInRefused) => {
    const retry = refused.id && (refused.refusal === "other-user" ? `${refused.id}?${REAUTHENTICATE}` : refused.id);
    return html(reply, SIGN_IN_PAGES[refused.refusal].status, signInRefusedPage(refused.refusal, retry));
  };

  /** The form again (a fresh token), or the page that says why there is none. */
  async function showForm(request: FastifyRequest<Params>, reply: FastifyReply, error?: FormError) {
    const { id } = request.params;
    const found = await find(id);
    if (found.kind === "not-found") return html(reply, 404, NOT_FOUND_PAGE);
    if (found.kind === "gone" || found.used) return html(reply, 410, GONE_PAGE);
    if (found.signIn && !signedIn(request, found)) {
      // Not signed in yet: to the authorization server, which sends the browser back to the callback.
      const reauthenticate = (request.query as Record<string, unknown> | undefined)?.[REAUTHENTICATE] !== undefined;
      const location = await (parts.signIn as ElicitationSignIn).start(request, reply, id, found.signIn, {
        reauthenticate,
      });
      return reply.status(303).header("location", location).send();
    }
    if (found.grant) {
      // No form: to the backend's authorization server, which sends the browser back with a code.
      const location = await grants.start(request, reply, id, found.grant);
      return reply.status(303).header("location", location).send();
    }
    const status = error ? FORM_ERRORS[error].status : 200;
    return html(reply, status, credentialForm(found.subject, formToken(keyring, id, request, reply), error));
  }

  app.addHook("onRequest", async (_request, reply) => {
    reply.headers(PAGE_HEADERS);
  });
  // Only forms: another media type is a 415 (shown as the form again, by the error handler).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: PAGE_BODY_LIMIT },
    (_request, body, done) => done(null, new URLSearchParams(body as string)),
  );
  app.setErrorHandler(async (error: Error & { statusCode?: number; code?: string }, request, reply) => {
    reply.headers(PAGE_HEADERS);
    const fromFastify = error.code?.startsWith("FST_") && (error.statusCode ?? 500) < 500;
    if (fromFastify) {
      const formError: FormError =
        error.statusCode === 413 ? "bodyTooLarge" : error.statusCode === 415 ? "notForm" : "unknownIntent";
      try {
        return await showForm(request as FastifyRequest<Params>, reply, formError);
      } catch (again) {
        error = again as Error;
      }
    }
    // Never the body or the credential: the error's own message names what failed.
    request.log.error({ err: { message: error.message, code: error.code } }, "elicitation page failed");
    return html(reply, 503, UNAVAILABLE_PAGE);
  });

  app.get<Params>("/elicitations/:id", async (request, reply) => showForm(request, reply));

  // The authorization server sends the user back here (a static route: it wins over /:id).
  app.get<{ Querystring: Record<string, unknown> }>(SIGN_IN_CALLBACK_PATH, async (request, reply) => {
    const { signIn } = parts;
    if (!signIn) return html(reply, 404, NOT_FOUND_PAGE);
    const opened = signIn.openState(request, request.query.state);
    if (!opened.ok) return refusedSignIn(reply, opened);
    const id = opened.state.i;
    const found = await find(id);
    if (found.kind === "not-found" || (found.kind === "open" && !found.signIn)) return html(reply, 404, NOT_FOUND_PAGE);
    if (found.kind === "gone" || found.used) return html(reply, 410, GONE_PAGE);
    const outcome = await signIn.finish(request, request.query, opened.state, found.signIn as SignInSettings);
    if (!outcome.ok) return refusedSignIn(reply, outcome);
    // Only the user the agent's token named may give the credential; nothing is stored otherwise.
    if (principalDigest(outcome.user) !== found.elicitation.principal)
      return refusedSignIn(reply, { ok: false, refusal: "other-user", id });
    signIn.grant(request, reply, id, outcome.user);
    // Relative: from the callback's folder to the page, the URL the form posts to.
    return reply.status(303).header("location", id).send();
  });

  // The backend's authorization server sends the user back here with a code (a static route too).
  app.get<{ Querystring: Record<string, unknown> }>(AUTHORIZATION_CALLBACK_PATH, async (request, reply) => {
    const opened = grants.openState(request, request.query.state);
    if (!opened.ok) return refusedSignIn(reply, opened);
    const id = opened.state.i;
    const found = await find(id);
    if (found.kind === "not-found" || (found.kind === "open" && !found.grant)) return html(reply, 404, NOT_FOUND_PAGE);
    if (found.kind === "gone" || found.used) return html(reply, 410, GONE_PAGE);
    const outcome = await grants.finish(request, request.query, opened.state, found.grant as AuthorizationCodeSettings);
    if (!outcome.ok) return refusedSignIn(reply, outcome);
    const consumed = await pending.consume(id);
    if (!consumed.ok)
      return consumed.reason === "unknown" ? html(reply, 404, NOT_FOUND_PAGE) : html(reply, 410, GONE_PAGE);
    const owner = { digest: found.elicitation.principal };
    try {
      await store.put(credentialScope(found.exposition), owner, JSON.stringify(outcome.grant));
    } catch (error) {
      request.log.error({ err: { message: (error as Error).message } }, "elicitation page: grant not stored");
      return html(reply, 503, NOT_STORED_PAGE);
    }
    // Relative: from the callback's folder to the page, where the revoke form posts.
    return html(reply, 200, authorizedPage(found.subject, formToken(keyring, id, request, reply), id));
  });

  app.post<Params>("/elicitations/:id", { bodyLimit: PAGE_BODY_LIMIT }, async (request, reply) => {
    const { id } = request.params;
    const found = await find(id);
    if (found.kind === "not-found") return html(reply, 404, NOT_FOUND_PAGE);
    if (found.kind === "gone") return html(reply, 410, GONE_PAGE);
    if (!signedIn(request, found)) return refusedSignIn(reply, { ok: false, refusal: "required", id });
    const fields = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
    if (!csrfHolds(keyring, id, request, fields.get("csrf")))
      return found.used ? html(reply, 403, CSRF_PAGE) : showForm(request, reply, "csrf");
    const { elicitation, subject } = found;
    const owner = { digest: elicitation.principal };
    const scope = credentialScope(found.exposition);
    const intent = fields.get("intent") ?? "store";

    if (intent === "revoke") {
      if (found.grant) {
        // Revoked at the authorization server first, best effort: forgetting it is what must not fail.
        const granted = await store.get(scope, owner);
        if (granted !== undefined) await grants.revoke(granted, found.grant);
      }
      const removed = await store.delete(scope, owner);
      return html(reply, 200, revokedPage(subject, removed, found.used ? undefined : id));
    }
    // A grant comes from the authorization server, never from a form.
    if (intent !== "store" || found.grant) return showForm(request, reply, "unknownIntent");
    if (found.used) return html(reply, 410, GONE_PAGE);
    const refused = credentialError(fields.get("credential") ?? "");
    if (refused) return showForm(request, reply, refused);

    const consumed = await pending.consume(id);
    if (!consumed.ok)
      return consumed.reason === "unknown" ? html(reply, 404, NOT_FOUND_PAGE) : html(reply, 410, GONE_PAGE);
    try {
      await store.put(scope, owner, fields.get("credential") as string);
    } catch (error) {
      // The id is used up: the user needs a new link, and must be told nothing was stored.
      request.log.error({ err: { message: (error as Error).message } }, "elicitation page: credential not stored");
      return html(reply, 503, NOT_STORED_PAGE);
    }
    return html(reply, 200, storedPage(subject, formToken(keyring, id, request, reply)));
  });
}

/** The backend's authorization server, when the plan's users authorize it (oauth2AuthorizationCode). */
function grantSettings(exposition: CompiledExposition): AuthorizationCodeSettings | undefined {
  const secret = exposition.plan.backendSecret;
  return secret?.source === "oauth2AuthorizationCode" ? secret.authorizationCode : undefined;
}

/** Why a submitted credential is refused, before anything is consumed or stored. */
function credentialError(credential: string): FormError | undefined {
  if (credential.length === 0) return "empty";
  if (Buffer.byteLength(credential, "utf8") > ELICITED_CREDENTIAL_MAX_BYTES) return "tooLong";
  // No header can carry them, and a pasted line break is never part of a key.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(credential)) return "control";
  return undefined;
}
