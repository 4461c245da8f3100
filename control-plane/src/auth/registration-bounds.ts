/**
 * What a gateway token lets a registration advertise: its FQDNs must match the token's
 * patterns and its labels must include the token's required ones. Without bounds a gateway
 * token could make up an FQDN and have it listed as an endpoint of every Exposition its labels
 * select.
 */
import { z } from "zod";
import { errors } from "../errors.ts";
import type { Principal } from "./principal.ts";

const hostName = "[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*";

/** `gw1.example.com` (that host) or `*.example.com` (one more label in front of it); ports are not part of it. */
export const fqdnPattern = z
  .string()
  .max(253)
  .regex(new RegExp(`^(\\*\\.)?${hostName}$`), {
    message: "must be a lowercase host name such as gw1.example.com, or *.example.com for its direct subdomains",
  });

export function fqdnAllowed(fqdn: string, patterns: string[]): boolean {
  const host = fqdn.replace(/:\d+$/, "");
  return patterns.some((pattern) => {
    if (!pattern.startsWith("*.")) return host === pattern;
    const suffix = pattern.slice(1); // ".example.com"
    return host.endsWith(suffix) && !host.slice(0, -suffix.length).includes(".") && host.length > suffix.length;
  });
}

/** Throws a 403 naming the first FQDN or label the principal's token does not allow. */
export function checkRegistrationBounds(
  principal: Principal,
  registration: { fqdns: string[]; labels: Record<string, string> },
): void {
  if (principal.kind !== "apiToken") return;
  const { allowedFqdns, requiredLabels } = principal;
  if (allowedFqdns) {
    const index = registration.fqdns.findIndex((fqdn) => !fqdnAllowed(fqdn, allowedFqdns));
    if (index >= 0) {
      throw errors.registrationRefused(
        `body.fqdns.${index}`,
        `'${registration.fqdns[index]}' matches none of ${allowedFqdns.join(", ")}`,
      );
    }
  }
  for (const [key, value] of Object.entries(requiredLabels ?? {})) {
    if (registration.labels[key] !== value) {
      throw errors.registrationRefused(`body.labels.${key}`, `must be '${value}'`);
    }
  }
}
