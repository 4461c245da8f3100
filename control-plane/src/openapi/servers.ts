/**
 * The base URLs of an API, from OpenAPI 3.x `servers` or Swagger 2.0 `schemes` + `host` +
 * `basePath`, following each specification's defaults (`/` when 3.x lists none; the document's
 * own scheme and host when 2.0 omits them).
 */
import type { SchemaDialect } from "./json-schema.ts";
import { isPlainObject } from "./plain-json.ts";

const absoluteUrl = /^[a-z][a-z0-9+.-]*:/i;

/** `documentUrl` is where the document was downloaded from, when it was. */
export function serverUrls(document: Record<string, unknown>, dialect: SchemaDialect, documentUrl?: string): string[] {
  const urls = dialect === "2.0" ? swaggerServers(document, documentUrl) : openApiServers(document);
  const resolved = urls.map((url) => (documentUrl && !absoluteUrl.test(url) ? new URL(url, documentUrl).href : url));
  return [...new Set(resolved)];
}

function openApiServers(document: Record<string, unknown>): string[] {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  const urls: string[] = [];
  for (const server of servers) {
    if (!isPlainObject(server) || typeof server.url !== "string") continue;
    const variables = isPlainObject(server.variables) ? server.variables : {};
    urls.push(
      server.url.replace(/\{([^}]+)\}/g, (template, name: string) => {
        const variable = variables[name];
        return isPlainObject(variable) && typeof variable.default === "string" ? variable.default : template;
      }),
    );
  }
  return urls.length > 0 ? urls : ["/"];
}

function swaggerServers(document: Record<string, unknown>, documentUrl: string | undefined): string[] {
  const basePath = typeof document.basePath === "string" ? document.basePath : "";
  const fetchedFrom = documentUrl ? new URL(documentUrl) : undefined;
  const host = typeof document.host === "string" && document.host !== "" ? document.host : fetchedFrom?.host;
  if (!host) return [basePath || "/"];
  const declared = Array.isArray(document.schemes)
    ? document.schemes.filter((scheme): scheme is string => scheme === "http" || scheme === "https")
    : [];
  const schemes = declared.length > 0 ? declared : fetchedFrom ? [fetchedFrom.protocol.slice(0, -1)] : [];
  // Without a scheme to go by, a network-path reference lets the caller pick one.
  if (schemes.length === 0) return [`//${host}${basePath}`];
  return schemes.map((scheme) => `${scheme}://${host}${basePath}`);
}
