/**
 * The web UI's static files (a `vite build` output, ATRIUM_UI_DIR), served at `/` beside the API:
 * read into memory once at start-up, so a request can only ever reach a file of that list (no
 * path ever touches the disk). Unknown non-API paths get index.html (the app routes them);
 * hashed assets are cached for good, everything else is revalidated; every answer carries a CSP.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { gzipSync } from "node:zlib";
import { acceptsGzip } from "@atrium/contract/accept-encoding";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { errors } from "./errors.ts";
import { withoutQuery } from "./log-hygiene.ts";

/** Vite puts every hashed file here: its name changes with its content, so it may be cached forever. */
const HASHED_PREFIX = "/assets/";
/** Paths the API and health checks own (with all below them): an unknown one is a 404 problem, never the app's page. */
const SERVER_PATHS = ["/api", "/q"];
/** Most a bundle may hold: a wrong ATRIUM_UI_DIR (a home folder) must not be read into memory. */
const MAX_BUNDLE_BYTES = 32 * 1024 * 1024;

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * Same-origin only: no inline script or style, no framing, no plugins; the page connects to its
 * own origin and to the gateway origins configured for the playground (none by default).
 */
export function uiContentSecurityPolicy(gatewayOrigins: string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    ["connect-src 'self'", ...gatewayOrigins].join(" "),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
export const UI_CONTENT_SECURITY_POLICY = uiContentSecurityPolicy();

interface UiFile {
  body: Buffer;
  /** The gzip form, when it is smaller (text files). */
  gzipped: Buffer | undefined;
  type: string;
  etag: string;
  cacheControl: string;
}

export interface UiBundle {
  dir: string;
  /** By URL path, e.g. `/index.html`, `/assets/index-3f2a.js`. */
  files: Map<string, UiFile>;
  contentSecurityPolicy: string;
}

export class UiBundleError extends Error {
  override readonly name = "UiBundleError";
}

/**
 * The bundle's regular files. Symbolic links are not followed (a link could pull any file of the
 * host into what the UI serves) and hidden files or folders (`.env`, `.git`) are not served:
 * a build output has neither.
 */
function filesUnder(dir: string): string[] {
  // Walked by hand: readdirSync's `recursive` descends into linked folders.
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith("."))
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return filesUnder(path);
      return entry.isFile() ? [path] : [];
    });
}

/** Reads a built bundle; throws a UiBundleError that says what to fix when `dir` is not one. */
export function readUiBundle(dir: string, gatewayOrigins: string[] = []): UiBundle {
  if (!existsSync(join(dir, "index.html"))) {
    throw new UiBundleError(
      `ATRIUM_UI_DIR '${dir}' holds no index.html: point it at a built web UI (\`atrium run --ui\` builds one), or unset it`,
    );
  }
  const files = new Map<string, UiFile>();
  let total = 0;
  for (const path of filesUnder(dir)) {
    const body = readFileSync(path);
    total += body.length;
    if (total > MAX_BUNDLE_BYTES) {
      throw new UiBundleError(
        `ATRIUM_UI_DIR '${dir}' holds more than ${MAX_BUNDLE_BYTES / 1024 / 1024} MB: point it at the web UI's build output`,
      );
    }
    const urlPath = `/${relative(dir, path).split(sep).join("/")}`;
    const type = CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
    const compressible = /^(text\/|application\/json|image\/svg)/.test(type);
    const gzipped = compressible ? gzipSync(body) : undefined;
    files.set(urlPath, {
      body,
      gzipped: gzipped && gzipped.length < body.length ? gzipped : undefined,
      type,
      etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
      cacheControl: urlPath.startsWith(HASHED_PREFIX) ? "public, max-age=31536000, immutable" : "no-cache",
    });
  }
  return { dir, files, contentSecurityPolicy: uiContentSecurityPolicy(gatewayOrigins) };
}

/** The file a GET path names, index.html for an app route, or undefined (a 404). */
function fileFor(bundle: UiBundle, url: string): UiFile | undefined {
  let path: string;
  try {
    path = decodeURIComponent(withoutQuery(url));
  } catch {
    return undefined;
  }
  if (SERVER_PATHS.some((server) => path === server || path.startsWith(`${server}/`))) return undefined;
  const file = bundle.files.get(path === "/" ? "/index.html" : path);
  if (file) return file;
  // A missing asset (a stale page asking for an old hash) is a 404, not HTML served as a script.
  if (path.startsWith(HASHED_PREFIX) || extname(path) !== "") return undefined;
  return bundle.files.get("/index.html");
}

function send(bundle: UiBundle, file: UiFile, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.headers({
    "content-type": file.type,
    "cache-control": file.cacheControl,
    etag: file.etag,
    vary: "accept-encoding",
    "content-security-policy": bundle.contentSecurityPolicy,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
  });
  if (request.headers["if-none-match"] === file.etag) return reply.status(304).send();
  if (file.gzipped && acceptsGzip(request.headers["accept-encoding"]))
    return reply.header("content-encoding", "gzip").send(file.gzipped);
  return reply.send(file.body);
}

export const uiRoutes: FastifyPluginAsync<{ bundle: UiBundle }> = async (app, { bundle }) => {
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const file = fileFor(bundle, request.url);
    if (!file) throw errors.routeNotFound(request.method, withoutQuery(request.url));
    return send(bundle, file, request, reply);
  };
  // Static routes (the API's) win over the wildcard in fastify's router.
  app.get("/", { schema: { hide: true } }, serve);
  app.get("/*", { schema: { hide: true } }, serve);
};
