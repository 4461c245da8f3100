/**
 * The elicitation page's HTML (page.ts serves it): server-rendered, no script, one stylesheet
 * allowed by its hash in the Content-Security-Policy. Accessible by construction: `lang`, one
 * `h1` naming the Exposition and what is asked, a label on every field, the hint and any error
 * tied to the field with `aria-describedby`, "Error: " in the title of a page that refuses a
 * submit, and nothing focusable before the credential field. Every interpolated value is escaped;
 * a submitted credential is never written back into a page.
 */
import { createHash } from "node:crypto";
import { ELICITED_CREDENTIAL_MAX_BYTES } from "./credential-store.ts";

/** What the page names: the Exposition, what its plan asks for and where the backend gets it. */
export interface PageSubject {
  exposition: string;
  organization: string;
  /** The plan's `backendSecret.elicit.description`. */
  description: string;
  /** The tool whose call asked. */
  tool: string;
  placement: { in: "header" | "query"; name: string; prefix?: string | undefined };
  /** The origin the credential is sent to (the plan's backend): the user sees where it goes. */
  backend: string;
}

/** Why a submit was refused, each with its status and the text shown beside the field. */
export const FORM_ERRORS = {
  empty: { status: 400, text: "Enter the credential." },
  tooLong: { status: 400, text: `The credential is too long: at most ${ELICITED_CREDENTIAL_MAX_BYTES} bytes.` },
  control: { status: 400, text: "The credential cannot contain line breaks or other control characters." },
  unknownIntent: { status: 400, text: "Use one of the buttons on this page to submit the form." },
  csrf: {
    status: 403,
    text:
      "This form could not be checked: it was sent from another site or browser, or cookies are blocked for " +
      "this site. Submit it again from this page.",
  },
  bodyTooLarge: {
    status: 413,
    text: `The form was too large: a credential is at most ${ELICITED_CREDENTIAL_MAX_BYTES} bytes.`,
  },
  notForm: { status: 415, text: "Submit the form on this page." },
} as const;
export type FormError = keyof typeof FORM_ERRORS;

const STYLE = [
  "body{font:1rem/1.5 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fff}",
  "main{max-width:36rem;margin:2rem auto;padding:0 1rem}",
  "h1{font-size:1.5rem;line-height:1.25}h2{font-size:1.125rem}",
  "label{display:block;font-weight:600;margin-bottom:.25rem}",
  "input{font:inherit;width:100%;box-sizing:border-box;padding:.5rem;border:2px solid #1b1b1b}",
  "input[aria-invalid=true]{border-color:#b00020}",
  ".error{color:#b00020;font-weight:600}",
  "button{font:inherit;margin-top:1rem;padding:.5rem 1rem}",
  ":focus-visible{outline:3px solid #fd0;outline-offset:2px}",
  "code{word-break:break-all}section{margin-top:2.5rem;border-top:1px solid #ccc}",
].join("");

/** The page's Content-Security-Policy: nothing but this stylesheet, forms only to this origin, never framed. */
export const PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function heading(subject: PageSubject): string {
  return `${subject.exposition}: ${subject.description}`;
}

function placementText(subject: PageSubject): string {
  const { placement } = subject;
  const where = `${placement.in === "header" ? "the header" : "the query parameter"} <code>${escapeHtml(placement.name)}</code>`;
  return placement.prefix ? `${where}, after <code>${escapeHtml(placement.prefix)}</code>` : where;
}

function csrfField(csrf: string): string {
  return `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`;
}

function revokeSection(subject: PageSubject, csrf: string, action?: string): string {
  return `<section aria-labelledby="revoke-heading">
<h2 id="revoke-heading">Remove your stored credential</h2>
<p id="revoke-hint">If you gave ${escapeHtml(subject.exposition)} a credential before, you can remove it. Your agent's next call to it then asks you again.</p>
<form method="post"${action ? ` action="${escapeHtml(action)}"` : ""}>
${csrfField(csrf)}
<button type="submit" name="intent" value="revoke" aria-describedby="revoke-hint">Remove my stored credential</button>
</form>
</section>`;
}

/** The form asking for the credential; with `error`, the refused submit's reason beside the field. */
export function credentialForm(subject: PageSubject, csrf: string, error?: FormError): string {
  const described = error ? "credential-hint credential-error" : "credential-hint";
  const errorText = error
    ? `<p id="credential-error" class="error"><span>Error:</span> ${escapeHtml(FORM_ERRORS[error].text)}</p>\n`
    : "";
  const title = `${error ? "Error: " : ""}${heading(subject)}`;
  return layout(
    title,
    `<h1>${escapeHtml(heading(subject))}</h1>
<p id="credential-hint">The tool <code>${escapeHtml(subject.tool)}</code> of ${escapeHtml(subject.exposition)} (organization ${escapeHtml(subject.organization)}) calls its backend with a credential of yours. It is sent only to <code>${escapeHtml(subject.backend)}</code>, in ${placementText(subject)}, stored encrypted, and used only for your calls.</p>
<form method="post">
${csrfField(csrf)}
<label for="credential">${escapeHtml(subject.description)}</label>
${errorText}<input id="credential" name="credential" type="password" required autocomplete="off" spellcheck="false" aria-describedby="${described}"${error ? ' aria-invalid="true"' : ""}>
<button type="submit" name="intent" value="store">Save credential</button>
</form>
${revokeSection(subject, csrf)}`,
  );
}

/** After the credential was stored. */
export function storedPage(subject: PageSubject, csrf: string): string {
  return layout(
    "Credential saved",
    `<h1>Credential saved</h1>
<p role="status">${escapeHtml(subject.exposition)} now has your credential. You can return to your agent: its call can go on. You can close this page.</p>
${revokeSection(subject, csrf)}`,
  );
}

/** After the user authorized the backend; the revoke form posts to `formUrl` (relative). */
export function authorizedPage(subject: PageSubject, csrf: string, formUrl: string): string {
  return layout(
    "Authorized",
    `<h1>Authorized</h1>
<p role="status">${escapeHtml(subject.exposition)} now calls <code>${escapeHtml(subject.backend)}</code> as you, with the authorization you gave. You can return to your agent: its call can go on. You can close this page.</p>
${revokeSection(subject, csrf, formUrl)}`,
  );
}

/** After a revoke; `formUrl` (relative) when the link can still take a new credential. */
export function revokedPage(subject: PageSubject, removed: boolean, formUrl: string | undefined): string {
  const title = removed ? "Credential removed" : "No credential was stored";
  const again = formUrl ? `\n<p><a href="${escapeHtml(formUrl)}">Give a new credential</a></p>` : "";
  return layout(
    title,
    `<h1>${title}</h1>
<p role="status">${escapeHtml(subject.exposition)} holds no credential of yours now. Your agent's next call to it asks you again.</p>${again}`,
  );
}

/** A refused request with no form to show: an unknown, used or expired link, or a check that failed. */
export function messagePage(title: string, text: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>`);
}

export const NOT_FOUND_PAGE = messagePage(
  "This link is not valid",
  "Check that you opened the whole link your agent gave you, or ask your agent to call the tool again for a new one.",
);
export const GONE_PAGE = messagePage(
  "This link has expired or was already used",
  "A link works once and for a few minutes. Ask your agent to call the tool again: it gives you a new link.",
);
export const UNAVAILABLE_PAGE = messagePage(
  "Try again in a minute",
  "The gateway cannot complete this request right now. Nothing was stored. Reload this page in a minute; if the link has expired by then, ask your agent to call the tool again.",
);
export const NOT_STORED_PAGE = messagePage(
  "Your credential was not stored",
  "The gateway could not store it, and this link is now used. Ask your agent to call the tool again: it gives you a new link.",
);
export const CSRF_PAGE = messagePage("This form could not be checked", FORM_ERRORS.csrf.text);

/**
 * Why the page's sign-in (sign-in.ts) let nobody in, each with its status, title and text. With
 * the elicitation id known, the page links to it again: opening it starts a new sign-in.
 */
export const SIGN_IN_PAGES = {
  state: {
    status: 400,
    title: "This sign-in could not be checked",
    text: "The answer from the sign-in page was not one this gateway asked for. Open the link your agent gave you again.",
  },
  expired: {
    status: 400,
    title: "This sign-in took too long",
    text: "Nothing was stored. Sign in again from the link your agent gave you.",
  },
  browser: {
    status: 400,
    title: "This sign-in was started in another browser",
    text: "Nothing was stored. Open the link your agent gave you in this browser, and sign in from there.",
  },
  denied: {
    status: 403,
    title: "Sign-in was cancelled or refused",
    text: "Nothing was stored. This page takes your credential only after you sign in.",
  },
  refused: {
    status: 400,
    title: "The sign-in did not succeed",
    text: "The authorization server did not sign you in. Nothing was stored. Try again; if it keeps failing, ask the Exposition's owner.",
  },
  unreachable: {
    status: 502,
    title: "The sign-in could not be completed",
    text: "The gateway could not complete the sign-in with the authorization server. Nothing was stored. Try again in a minute.",
  },
  token: {
    status: 502,
    title: "The sign-in could not be verified",
    text: "The authorization server's answer did not pass the gateway's checks. Nothing was stored. Try again; if it keeps failing, ask the Exposition's owner.",
  },
  "other-user": {
    status: 403,
    title: "Signed in as another user than the one the agent asked for",
    text: "The credential must come from the user your agent acts for. Nothing was stored. Sign in again as that user.",
  },
  required: {
    status: 403,
    title: "Sign in first",
    text: "This page takes your credential only after you sign in as the user your agent acts for. Nothing was stored.",
  },
} as const;
export type SignInRefusal = keyof typeof SIGN_IN_PAGES;

/** A refused sign-in; `retryUrl` (relative) opens the elicitation again, which starts a new sign-in. */
export function signInRefusedPage(refusal: SignInRefusal, retryUrl: string | undefined): string {
  const { title, text } = SIGN_IN_PAGES[refusal];
  const again = retryUrl ? `\n<p><a href="${escapeHtml(retryUrl)}">Sign in again</a></p>` : "";
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>${again}`);
}
