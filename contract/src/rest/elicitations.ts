/**
 * Pending elicitations as the control plane keeps them for gateways (issue 15; the gateways'
 * elicitation flow and page): the record behind an elicitation page URL, so that any
 * replica serves the page and a second submit fails on every replica. Stored under the SHA-256 of
 * the elicitation id, never the id: reading the database yields no usable URL.
 */
import { z } from "zod";
import { principalDigest } from "./elicited-credentials.ts";

/** Longest life of an elicitation (its page URL), in seconds. */
export const ELICITATION_MAX_TTL_SECONDS = 900;
/** Most unexpired, unused elicitations per Exposition. */
export const PENDING_ELICITATIONS_PER_EXPOSITION = 10_000;
/** Pending elicitations of one user on one Exposition: one user's calls cannot use up the Exposition's. */
export const PENDING_ELICITATIONS_PER_USER = 20;

/** SHA-256 of the elicitation id, hex. */
export const elicitationIdHash = z
  .string()
  .regex(/^[0-9a-f]{64}$/, { message: "must be the SHA-256 (64 lowercase hex digits) of the elicitation id" });

export const elicitationParams = z.object({ idHash: elicitationIdHash });

export const newElicitation = z
  .object({
    idHash: elicitationIdHash,
    expositionId: z.uuid({ message: "must be an Exposition id (a UUID)" }),
    principal: principalDigest,
    /** The tool whose call asked for it, for the page to name. */
    tool: z.string().min(1).max(128),
    expiresAt: z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time" }),
  })
  .strict();
export type NewElicitation = z.output<typeof newElicitation>;

export const elicitationView = z.object({
  idHash: z.string(),
  expositionId: z.string(),
  principal: z.string(),
  tool: z.string(),
  expiresAt: z.string(),
  usedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ElicitationView = z.output<typeof elicitationView>;
