/** POST /login: organization, user name and password in, an expiring bearer token out. */
import { z } from "zod";

export const loginBody = z.object({
  organization: z.string().min(1).describe("Organization name."),
  username: z.string().min(1),
  password: z.string().min(1),
});
export const loginAnswer = z.object({ token: z.string(), expiresAt: z.string(), organizationId: z.string() });
export type LoginAnswer = z.output<typeof loginAnswer>;
