/**
 * API tokens: what creating one takes (a gateway token may be bounded to FQDN patterns and
 * required labels) and how one is shown (its value only in the answer to create).
 */
import { labelMap } from "@atrium/crds";
import { z } from "zod";

export const TOKEN_ROLES = ["gateway", "operator", "admin"] as const;
export type TokenRole = (typeof TOKEN_ROLES)[number];

const hostName = "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*";
/** `gw1.example.com` (that host) or `*.example.com` (one more label in front of it); ports are not part of it. */
export const fqdnPattern = z
  .string()
  .max(253)
  .regex(new RegExp(`^(\\*\\.)?${hostName}$`), {
    message: "must be a lowercase host name such as gw1.example.com, or *.example.com for its direct subdomains",
  });

const bounds = {
  allowedFqdns: z
    .array(fqdnPattern)
    .min(1)
    .max(100)
    .nullable()
    .describe("Gateway tokens: the FQDNs a registration may advertise, exact or `*.domain`; null allows any."),
  requiredLabels: labelMap
    .nullable()
    .describe("Gateway tokens: labels every registration must carry, with these values; null requires none."),
};
export const tokenView = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(TOKEN_ROLES),
  ...bounds,
  expiresAt: z.string(),
  createdAt: z.string(),
});
export type TokenView = z.output<typeof tokenView>;
export const createdToken = tokenView.extend({ token: z.string().describe("The value, shown only now.") });
export type CreatedToken = z.output<typeof createdToken>;

export const newToken = z
  .object({
    name: z.string().min(1).max(128),
    validityDays: z.number().int().min(1).max(3650).describe("Days until the token expires."),
    role: z
      .enum(TOKEN_ROLES)
      .default("gateway")
      .describe(
        "gateway: register gateways and read their change stream; operator: what the operator reconciles; admin: the organization's records.",
      ),
    allowedFqdns: bounds.allowedFqdns.optional(),
    requiredLabels: bounds.requiredLabels.optional(),
  })
  .refine((body) => body.role === "gateway" || (body.allowedFqdns == null && body.requiredLabels == null), {
    message: "allowedFqdns and requiredLabels bound gateway registrations: only a gateway token takes them",
    path: ["role"],
  });
export type NewToken = z.input<typeof newToken>;
