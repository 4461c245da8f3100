/**
 * The elicitation id: names one pending elicitation in the page URL the client opens. 256 random
 * bits (unguessable), nothing else in it (no PII, no credential), single-use and short-lived.
 * The control plane keeps its record (`/api/v1/elicitations`, pending-elicitations.ts) under the
 * SHA-256 of the id, never the id itself, so reading the database yields no usable page URL.
 */
import { createHash, randomBytes } from "node:crypto";

/** How long a page URL is accepted: the same as the requestState that carries its id. */
export const ELICITATION_ID_TTL_SECONDS = 600;

export function newElicitationId(): string {
  return randomBytes(32).toString("base64url");
}

/** What the control plane knows the elicitation by. */
export function elicitationIdHash(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}

/** Whether text has the shape of an id newElicitationId makes (checked before asking the control plane). */
export function isElicitationId(text: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(text);
}
