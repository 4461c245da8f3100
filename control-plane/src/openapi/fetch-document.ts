/**
 * Downloading an OpenAPI document from an http(s) URL, bounded in time and size. Only the document
 * itself is fetched: the import never follows a `$ref` to another URL.
 */
import { getGlobalDispatcher, interceptors, request } from "undici";
import { fetchFailed, notUtf8, OpenApiImportError, tooLarge, urlInvalid } from "./errors.ts";

export type FetchedDocument = {
  text: string;
  /** Where the document was finally served from (after redirects), to resolve relative server URLs. */
  url: string;
};

const maxRedirections = 5;

/** Parses `raw` as an absolute http(s) URL or throws `OPENAPI_URL_INVALID`. */
export function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw urlInvalid(raw);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw urlInvalid(raw);
  return url;
}

/** The URL as it may appear in messages: credentials in it are secrets. */
export function redactUrl(url: URL): string {
  if (!url.username && !url.password) return url.href;
  const copy = new URL(url.href);
  copy.username = "";
  copy.password = "";
  return copy.href;
}

export async function fetchDocument(rawUrl: string, timeoutMs: number, maxBytes: number): Promise<FetchedDocument> {
  const url = parseHttpUrl(rawUrl);
  const shown = redactUrl(url);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await request(url, {
      method: "GET",
      // No compression: the size limit then counts the bytes we actually hold.
      headers: { accept: "application/json, application/yaml, text/yaml, */*;q=0.5", "accept-encoding": "identity" },
      signal,
      dispatcher: getGlobalDispatcher().compose(interceptors.redirect({ maxRedirections, throwOnMaxRedirect: true })),
    });
    if (response.statusCode < 200 || response.statusCode > 299) {
      await response.body.dump();
      throw fetchFailed(shown, `the server answered HTTP ${response.statusCode}`);
    }
    const declaredLength = Number(response.headers["content-length"]);
    if (Number.isFinite(declaredLength) && declaredLength > maxBytes) {
      discard(response.body);
      throw tooLarge(`The document at ${shown} (${declaredLength} bytes)`, maxBytes);
    }
    const chunks: Buffer[] = [];
    let received = 0;
    for await (const chunk of response.body) {
      received += chunk.length;
      if (received > maxBytes) {
        discard(response.body);
        throw tooLarge(`The document at ${shown}`, maxBytes);
      }
      chunks.push(chunk);
    }
    return { text: decodeUtf8(Buffer.concat(chunks)), url: finalUrl(response, url) };
  } catch (error) {
    if (error instanceof OpenApiImportError) throw error;
    if (signal.aborted) throw fetchFailed(shown, `no complete answer within ${timeoutMs} ms`, error);
    throw fetchFailed(shown, error instanceof Error ? error.message : String(error), error);
  }
}

/** Stops a download we no longer want; destroying emits an abort error nobody else listens to. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on("error", () => {});
  body.destroy();
}

/** UTF-8 without a byte-order mark; anything else is refused rather than guessed. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw notUtf8();
  }
}

function finalUrl(response: { context?: unknown }, requested: URL): string {
  // The redirect interceptor records the URLs it followed in `context.history`.
  const history = (response.context as { history?: URL[] } | undefined)?.history;
  const last = history?.at(-1);
  return last ? String(last) : requested.href;
}
