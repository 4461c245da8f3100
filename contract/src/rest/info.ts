/** GET /info: the control plane's runtime version, its database kind and the caller's organization. */
import { z } from "zod";

export const infoView = z.object({
  version: z.string(),
  node: z.string(),
  database: z.string(),
  organizationId: z.string(),
});
export type InfoView = z.output<typeof infoView>;
