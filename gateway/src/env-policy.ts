/**
 * Which environment variables a backend secret `${env:NAME}` may name on this gateway. The
 * gateway's environment holds its own credentials (the control-plane token, the session key)
 * and often a cloud's, while any plan author can write a reference: so only names the gateway's
 * operator allowed (ATRIUM_GATEWAY_ENV_ALLOW, names or `*` globs) resolve, and the gateway's own
 * settings never do, whatever the patterns say.
 */

/** Allowed when ATRIUM_GATEWAY_ENV_ALLOW is unset or empty. */
export const DEFAULT_ENV_ALLOW = ["ATRIUM_BACKEND_SECRET_*"];

/** The gateway's own settings (see config.ts): never resolvable. */
const NEVER_PREFIXES = ["ATRIUM_GATEWAY_", "ATRIUM_CONTROL_PLANE_"];
const NEVER_NAMES = new Set(["ATRIUM_LOG_LEVEL"]);

const PATTERN = /^[A-Za-z_*][A-Za-z0-9_*]*$/;

/** Why `${env:name}` may not be used here, or undefined when it may. */
export type EnvPolicy = (name: string) => string | undefined;

/** Parses `A,B_*` into a policy; throws with the offending entry named. */
export function envPolicy(patterns: string[]): EnvPolicy {
  const allowed = patterns.map((pattern) => {
    if (!PATTERN.test(pattern)) {
      throw new Error(
        `ATRIUM_GATEWAY_ENV_ALLOW: '${pattern}' is not a variable name or a glob such as ATRIUM_BACKEND_SECRET_*`,
      );
    }
    return new RegExp(`^${pattern.replaceAll("*", "[A-Za-z0-9_]*")}$`);
  });
  const list = patterns.join(",");
  return (name) => {
    if (NEVER_NAMES.has(name) || NEVER_PREFIXES.some((prefix) => name.startsWith(prefix))) {
      return `the backend secret references \${env:${name}}, one of the gateway's own settings, which are never resolvable`;
    }
    if (!allowed.some((pattern) => pattern.test(name))) {
      return `the backend secret references \${env:${name}}, which this gateway does not allow (allowed: ${list}); its operator can add the name to ATRIUM_GATEWAY_ENV_ALLOW`;
    }
    if (!process.env[name]) {
      return `the backend secret references \${env:${name}}, which is not set (or empty) on this gateway`;
    }
    return undefined;
  };
}

/** ATRIUM_GATEWAY_ENV_ALLOW as a list; the default when unset or empty. */
export function envAllowPatterns(raw: string | undefined): string[] {
  const patterns = (raw ?? "")
    .split(",")
    .map((pattern) => pattern.trim())
    .filter(Boolean);
  return patterns.length ? patterns : DEFAULT_ENV_ALLOW;
}
