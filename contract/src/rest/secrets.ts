/** Backend secrets (write-only values) and the re-encryption report. */
import { z } from "zod";
import { recordName, timestamps } from "./records.ts";

const secretValue = z.string().min(1).max(65536).describe("The secret; write-only.");
export const secretBody = z.object({ name: recordName, value: secretValue });
export type SecretBody = z.input<typeof secretBody>;
export const secretValueBody = z.object({ value: secretValue });
export const secretView = z.object({ id: z.string(), name: z.string(), ...timestamps });
export type SecretView = z.output<typeof secretView>;
export const reencryptReport = z.object({
  activeKeyId: z.string(),
  scanned: z.number(),
  reencrypted: z.number(),
  alreadyCurrent: z.number(),
  conflicts: z.number(),
  byPreviousKey: z.record(z.string(), z.number()),
});
export type ReencryptReport = z.output<typeof reencryptReport>;
