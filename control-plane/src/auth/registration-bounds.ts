/**
 * What a gateway token lets a registration advertise: its FQDNs must match the token's
 * patterns and its labels must include the token's required ones. Without bounds a gateway
 * token could make up an FQDN and have it listed as an endpoint of every Exposition its labels
 * select. The pattern's shape is `fqdnPattern` in @atrium/contract/rest.
 */
import { errors } from "../errors.ts";
import type { Principal } from "./principal.ts";

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
