/** Gateway Groups: integer ids and a label selector over the labels gateways advertise. */
import { gatewayGroupSpec } from "@atrium/crds";
import { z } from "zod";
import { gatewayGroupId, recordName, timestamps } from "./records.ts";

export const gatewayGroupBody = gatewayGroupSpec.extend({ name: recordName });
export type GatewayGroupBody = z.input<typeof gatewayGroupBody>;
export const gatewayGroupView = gatewayGroupSpec.extend({ id: z.number().int(), name: z.string(), ...timestamps });
export type GatewayGroupView = z.output<typeof gatewayGroupView>;
export const gatewayGroupParams = z.object({ id: z.coerce.number().pipe(gatewayGroupId) });
