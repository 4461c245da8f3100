/**
 * Web origins in configuration (`https://ui.example.com, http://localhost:5173`): the browser
 * origins a gateway answers with CORS, the gateway origins the web UI may connect to. Exact
 * origins only: a wildcard, a path or a non-http(s) value stops the start with the value named.
 */
import { z } from "zod";

/** The origin `entry` names (any case, one trailing slash allowed), or undefined when it is not one. */
function originOf(entry: string): string | undefined {
  const url = URL.canParse(entry) ? new URL(entry) : undefined;
  // URL takes `*` in a host name: a wildcard would parse as a host no browser ever sends.
  if (!url || !/^https?:$/.test(url.protocol) || url.hostname.includes("*")) return undefined;
  return url.origin === entry.replace(/\/$/, "").toLowerCase() ? url.origin : undefined;
}

export function parseOrigins(variable: string, text: string | undefined): string[] {
  const origins: string[] = [];
  for (const entry of (text ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const origin = originOf(entry);
    if (!origin) {
      throw new Error(
        `${variable}: '${entry}' is not an origin: write scheme://host[:port], e.g. https://atrium.example.com (no path, no wildcard)`,
      );
    }
    origins.push(origin);
  }
  return origins;
}

/**
 * One origin as a chart value: written as parseOrigins normalizes it (lowercase, no trailing
 * slash, no default port). The pattern is what a JSON Schema can check (scheme, host, port); the
 * refinement is parseOrigins' own check.
 */
export const webOrigin = z
  .string()
  .max(270)
  .regex(/^https?:\/\/([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*(:[1-9]\d{0,4})?$/, {
    message:
      "must be an origin: scheme://host[:port], e.g. https://atrium.example.com (lowercase, no path, no wildcard)",
  })
  .refine((value) => originOf(value) === value, {
    message: "must be an origin as a browser writes it: no default port (:80 for http, :443 for https)",
  });
