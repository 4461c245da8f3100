/**
 * What a gateway registers with (id, instance, FQDNs, labels) and what the control plane answers.
 * The control plane validates registrations with these schemas; gateways validate their own
 * configuration with the same ones, so a setting the control plane would refuse fails at start.
 */
import { labelMap, objectName } from "@atrium/crds";
import { z } from "zod";

/** A gateway's id: an object name (the one schema), as its pod's name usually is. */
export const gatewayId = objectName;
/** A host name or IP address, optionally with a port: where clients reach the gateway. */
export const fqdn = z
  .string()
  .max(260)
  .regex(/^([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*(:\d{1,5})?$/, {
    message: "must be a lowercase host name such as gw1.example.com, optionally with :port",
  });
export const instanceId = z.string().min(8).max(128).describe("Random per gateway process; kept across its restarts.");

/** What a gateway sends to register. */
export const gatewayRegistration = z.object({
  id: gatewayId,
  instanceId,
  fqdns: z.array(fqdn).min(1).max(32),
  labels: labelMap.default({}),
  version: z.string().max(64).optional(),
});

/** The control plane's answer to a registration; fields added later are optional for older control planes. */
export const registrationAnswer = z.object({
  id: z.string(),
  healthIntervalSeconds: z.number(),
  staleAfterSeconds: z.number(),
  /** The change stream sends a heartbeat this often: a gateway hearing nothing for three of them reconnects. */
  heartbeatSeconds: z.number().positive().optional(),
  /** The organization the token belongs to: the gateway's cache is bound to it. */
  organization: z.object({ id: z.string(), name: z.string() }).optional(),
});
