/**
 * Elicited credentials as the control plane keeps them for gateways (issue 15): per
 * Exposition and user, only ciphertext a gateway made with its cluster key. The user is named by
 * a digest the gateway computes (of the OAuth issuer and subject, or of the 2025 session), so
 * neither the credential nor the user's identity reaches the control plane in clear.
 */
import { z } from "zod";

/** Longest ciphertext accepted: a sealed backend key of a few KiB, never a document. */
export const ELICITED_CREDENTIAL_MAX_CIPHERTEXT = 8192;
/** Most stored credentials per Exposition: a bound on what one endpoint's users can make it hold. */
export const ELICITED_CREDENTIALS_PER_EXPOSITION = 100_000;

/**
 * Most credentials written (stored or replaced) per Exposition in a minute, each user's counted
 * once however often it is rewritten: ten users a second finishing the page, far above any real
 * sign-up rate, far below what would load the database.
 */
export const ELICITED_CREDENTIAL_WRITES_PER_MINUTE = 600;

/** SHA-256, base64url: 43 characters. */
export const principalDigest = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, { message: "must be the base64url SHA-256 (43 characters) of the user's identity" });

export const elicitedCredentialParams = z.object({
  id: z.uuid({ message: "must be an Exposition id (a UUID)" }),
  principal: principalDigest,
});

export const elicitedCredentialBody = z
  .object({
    ciphertext: z
      .string()
      .max(ELICITED_CREDENTIAL_MAX_CIPHERTEXT, {
        message: `must be at most ${ELICITED_CREDENTIAL_MAX_CIPHERTEXT} characters`,
      })
      .regex(/^[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{1,}$/, {
        message: "must be a gateway's sealed value: <key id>.<base64url>",
      }),
  })
  .strict();
export type ElicitedCredentialBody = z.output<typeof elicitedCredentialBody>;

export const elicitedCredentialView = z.object({
  expositionId: z.string(),
  principal: z.string(),
  ciphertext: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ElicitedCredentialView = z.output<typeof elicitedCredentialView>;
