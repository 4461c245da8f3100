/** Registered gateways as the registry lists them (registration itself is in ../registration.ts). */
import { z } from "zod";
import { gatewayId, instanceId } from "../registration.ts";

export const GATEWAY_HEALTH = ["UP", "STALE"] as const;
export const gatewayView = z.object({
  id: z.string(),
  fqdns: z.array(z.string()),
  labels: z.record(z.string(), z.string()),
  version: z.string().nullable(),
  health: z.enum(GATEWAY_HEALTH),
  registeredAt: z.string(),
  lastSeenAt: z.string(),
});
export type GatewayView = z.output<typeof gatewayView>;
export const gatewayParams = z.object({ id: gatewayId });
/** Health advertisements name the process, so a replaced gateway's leftover cannot keep an id alive. */
export const gatewayHealthBody = z.object({ instanceId });
export const gatewayDeregisterQuery = z.object({ instanceId: instanceId.optional() });
