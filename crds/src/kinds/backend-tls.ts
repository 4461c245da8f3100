/**
 * A ConfigurationPlan's TLS to its backend: which CAs the gateway trusts, the client certificate
 * it presents (mutual TLS), and the name it verifies and sends as SNI. The CRD and the REST API
 * share these fields; each names a stored secret its own way (`secretSourceRef`, `secretId`), so
 * the schema is built from that name. The gateway enforces all of it (gateway/src/backend-tls.ts).
 */
import { z } from "zod";
import { exactlyOneOf, type ObjectRule, withRules } from "../rules.ts";

/** PEM certificates: what a CA bundle is. A private key pasted here would be stored in the clear, so it is refused. */
const caBundlePem = z
  .string()
  .max(262_144)
  .regex(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/, {
    message: "must hold PEM certificates (-----BEGIN CERTIFICATE-----)",
  })
  .refine((pem) => !/PRIVATE KEY-----/.test(pem), {
    message: "must hold certificates only: a private key never goes in caBundle (it is not a secret field)",
  });

/**
 * An absolute path on the gateway's file system, without `..` segments: the gateway reads it only
 * under the directories its operator allowed (ATRIUM_GATEWAY_TLS_FILE_DIRS).
 */
export const gatewayFilePath = z
  .string()
  .min(2)
  .max(4096)
  .regex(/^\//, { message: "must be an absolute path on the gateway (starting with /)" })
  .refine((path) => !path.includes("\0"), { message: "must not contain NUL" })
  .refine((path) => !path.split("/").includes(".."), { message: "must not contain '..' segments" });

/** A DNS host name (RFC 1123): what SNI carries and a certificate's DNS names are checked against. */
const serverName = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?)*$/, {
    message: "must be a DNS host name (SNI carries no IP address and no port)",
  });

/** One PEM file or stored secret: exactly one of `key` (a stored secret, named the surface's way) or `file`. */
function keyMaterial<K extends string, S extends z.ZodType>(key: K, stored: S, what: string) {
  const file = gatewayFilePath
    .optional()
    .describe(
      `A PEM file on the gateway holding the ${what}, re-read when it changes (a certificate rotated by ` +
        "cert-manager or a SPIFFE helper is used without restart).",
    );
  const shape = { [key]: stored.optional(), file } as { [P in K]: z.ZodOptional<S> } & { file: typeof file };
  return exactlyOneOf(z.object(shape), [key, "file"]).describe(`The ${what}: exactly one of ${key}, file.`);
}

const hasCa = (tls: Record<string, unknown>) => tls.caBundle !== undefined || tls.caFile !== undefined;

const backendTlsRules: readonly ObjectRule[] = [
  {
    message: "set at most one of caBundle, caFile",
    path: ["caFile"],
    cel: "!(has(self.caBundle) && has(self.caFile))",
    holds: (tls) => !(tls.caBundle !== undefined && tls.caFile !== undefined),
  },
  {
    message: "clientCertificate and clientKey go together: set both or neither",
    path: ["clientKey"],
    cel: "has(self.clientCertificate) == has(self.clientKey)",
    holds: (tls) => (tls.clientCertificate === undefined) === (tls.clientKey === undefined),
  },
  {
    message:
      "trustSystemCAs needs caBundle or caFile: without a CA of the plan's own, the system CAs are the ones trusted",
    path: ["trustSystemCAs"],
    cel: "!has(self.trustSystemCAs) || has(self.caBundle) || has(self.caFile)",
    holds: (tls) => tls.trustSystemCAs === undefined || hasCa(tls),
  },
  {
    message: "set caBundle, caFile, clientCertificate or serverName: an empty backendTls changes nothing",
    path: [],
    cel: "has(self.caBundle) || has(self.caFile) || has(self.clientCertificate) || has(self.serverName)",
    holds: (tls) => hasCa(tls) || tls.clientCertificate !== undefined || tls.serverName !== undefined,
  },
];

/** `backendTls`, with the client certificate and key named the way the surface names a stored secret. */
export function backendTls<K extends string, S extends z.ZodType>(key: K, stored: S) {
  return withRules(
    z.object({
      caBundle: caBundlePem
        .optional()
        .describe(
          "PEM certificates of the CAs that sign the backend's certificate, stored on the plan (not a secret).",
        ),
      caFile: gatewayFilePath
        .optional()
        .describe(
          "A PEM file on the gateway with the CAs that sign the backend's certificate (a SPIFFE trust bundle, a " +
            "cert-manager ca.crt), re-read when it changes.",
        ),
      trustSystemCAs: z
        .boolean()
        .optional()
        .describe(
          "With caBundle or caFile: true trusts the system CAs as well, false or absent trusts only the plan's " +
            "CAs. Without either, the system CAs are trusted and this stays unset.",
        ),
      clientCertificate: keyMaterial(key, stored, "client certificate (PEM, its chain after it)").optional(),
      clientKey: keyMaterial(key, stored, "client certificate's private key (PEM, unencrypted)").optional(),
      serverName: serverName
        .optional()
        .describe(
          "The name sent as SNI and that the backend's certificate must carry; the backend endpoint's host when " +
            "absent.",
        ),
    }),
    backendTlsRules,
  ).describe(
    "TLS from the gateway to an https or grpcs backend: the CAs trusted, the client certificate presented (mutual " +
      "TLS) and the server name verified. A certificate that is expired, untrusted or for another name fails the " +
      "call with a tool result saying which, on an https and a grpcs backend alike.",
  );
}

/**
 * `backendTls` is for backends over TLS (https://, and grpcs:// where gRPC backends are allowed): on
 * http it would do nothing. Reads the CR's and the REST body's shape alike.
 */
export const backendTlsNeedsHttpsRule: ObjectRule = {
  message: "backendTls needs an https backendEndpoint: a plain-http backend has no TLS to configure",
  path: ["backendTls"],
  cel: "!has(self.backendTls) || self.backendEndpoint.startsWith('https://') || self.backendEndpoint.startsWith('grpcs://')",
  holds: (plan) =>
    plan.backendTls === undefined ||
    typeof plan.backendEndpoint !== "string" ||
    plan.backendEndpoint.startsWith("https://") ||
    plan.backendEndpoint.startsWith("grpcs://"),
};
