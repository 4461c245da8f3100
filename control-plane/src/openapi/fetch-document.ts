/**
 * Downloading an OpenAPI document from an http(s) URL, bounded in time and size, behind the SSRF
 * guard (ssrf-policy.ts): the host is resolved, every address it resolves to is checked, and the
 * connection is pinned to the checked address (no second resolution between check and connect).
 * At most `maxRedirects` redirects are followed, each checked the same way. Only the document
 * itself is fetched: the import never follows a `$ref` to another URL. Messages name the URL
 * (credentials removed) but never echo what was received.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { Agent, request } from "undici";
import { fetchFailed, notUtf8, OpenApiImportError, tooLarge, urlForbidden, urlInvalid } from "./errors.ts";
import { type AllowEntry, isAllowed, nonPublicReason, parseAllowHosts } from "./ssrf-policy.ts";

export type FetchedDocument = {
  text: string;
  /** Where the document was finally served from (after redirects), to resolve relative server URLs. */
  url: string;
};

export type ResolvedAddress = { address: string; family: number };

export type FetchPolicy = {
  /** Addresses opened by the operator (ATRIUM_IMPORT_ALLOW_HOSTS); none by default. */
  allow: AllowEntry[];
  /** Name resolution, every address of a name; tests inject one that never leaves 127.0.0.0/8. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
};

export type FetchOptions = {
  timeoutMs: number;
  maxBytes: number;
  /** Default: `fetchPolicyFromEnv()`. */
  policy?: FetchPolicy;
  /**
   * Sends this JSON body with `POST` instead of a `GET` (a GraphQL introspection query). Only
   * 307 and 308 redirects are followed then: the others would turn it into a `GET`.
   */
  postJson?: string;
};

export const maxRedirects = 3;

/** The policy of ATRIUM_IMPORT_ALLOW_HOSTS (throws on an entry it cannot read). */
export function fetchPolicyFromEnv(env: NodeJS.ProcessEnv = process.env): FetchPolicy {
  return { allow: parseAllowHosts(env.ATRIUM_IMPORT_ALLOW_HOSTS) };
}

/** Parses `raw` as an absolute http(s) URL or throws `OPENAPI_URL_INVALID`. */
export function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw urlInvalid(raw);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw urlInvalid(redactUrl(url));
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

export async function fetchDocument(rawUrl: string, options: FetchOptions): Promise<FetchedDocument> {
  const policy = options.policy ?? fetchPolicyFromEnv();
  let url = parseHttpUrl(rawUrl);
  const signal = AbortSignal.timeout(options.timeoutMs);
  for (let redirects = 0; ; redirects++) {
    const shown = redactUrl(url);
    const address = await checkedAddress(url, policy, shown);
    const dispatcher = pinnedAgent(address);
    try {
      const response = await request(url, {
        // No compression: the size limit then counts the bytes we actually hold.
        ...(options.postJson === undefined
          ? {
              method: "GET",
              headers: {
                accept: "application/json, application/yaml, text/yaml, */*;q=0.5",
                "accept-encoding": "identity",
              },
            }
          : {
              method: "POST",
              // application/json: a GraphQL server answers its errors with 200 and a body saying them.
              headers: {
                accept: "application/json",
                "content-type": "application/json",
                "accept-encoding": "identity",
              },
              body: options.postJson,
            }),
        signal,
        dispatcher,
      });
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === "string") {
        await response.body.dump();
        if (options.postJson !== undefined && response.statusCode !== 307 && response.statusCode !== 308)
          throw fetchFailed(
            shown,
            `the server redirected (HTTP ${response.statusCode}) as for a page: give the GraphQL endpoint's own URL`,
          );
        if (redirects >= maxRedirects) throw fetchFailed(shown, `more than ${maxRedirects} redirects`);
        url = nextUrl(location, url, shown);
        continue;
      }
      if ((response.statusCode < 200 || response.statusCode > 299) && !graphqlErrorAnswer(options, response)) {
        await response.body.dump();
        throw fetchFailed(shown, `the server answered HTTP ${response.statusCode}`);
      }
      return { text: decodeUtf8(await readBounded(response, shown, options.maxBytes)), url: url.href };
    } catch (error) {
      if (error instanceof OpenApiImportError) throw error;
      if (signal.aborted) throw fetchFailed(shown, `no complete answer within ${options.timeoutMs} ms`, error);
      // The error's own message may carry addresses; its code says enough.
      const code = (error as { code?: unknown }).code;
      throw fetchFailed(shown, `the connection failed${typeof code === "string" ? ` (${code})` : ""}`, error);
    } finally {
      void dispatcher.close();
    }
  }
}

/**
 * A GraphQL server may answer a refused query (introspection disabled, authentication needed) with
 * a 4xx and a JSON body holding its errors: that body is the answer the import reads.
 */
function graphqlErrorAnswer(options: FetchOptions, response: Awaited<ReturnType<typeof request>>): boolean {
  const type = String(response.headers["content-type"] ?? "");
  return (
    options.postJson !== undefined &&
    response.statusCode >= 400 &&
    response.statusCode < 500 &&
    /^application\/(graphql-response\+)?json\b/i.test(type)
  );
}

/** Resolves the URL's host and checks every address; returns the one to connect to. */
export async function checkedAddress(url: URL, policy: FetchPolicy, shown: string): Promise<ResolvedAddress> {
  // WHATWG URL parsing already turned decimal, hex and octal IPv4 forms into dotted quads.
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  const family = isIP(host);
  let addresses: ResolvedAddress[];
  if (family !== 0) {
    addresses = [{ address: host, family }];
  } else {
    try {
      addresses = await (policy.resolve ?? resolveAll)(host);
    } catch {
      throw fetchFailed(shown, `the host name ${host} could not be resolved`);
    }
    if (addresses.length === 0) throw fetchFailed(shown, `the host name ${host} could not be resolved`);
  }
  for (const { address } of addresses) {
    const reason = nonPublicReason(address);
    if (reason !== undefined && !isAllowed(policy.allow, host, address, port)) {
      throw urlForbidden(shown, family === 0 ? `${host} resolves to an address that is refused (${reason})` : reason);
    }
  }
  return addresses[0] as ResolvedAddress;
}

async function resolveAll(hostname: string): Promise<ResolvedAddress[]> {
  return dnsLookup(hostname, { all: true, verbatim: true });
}

/** An agent whose connections go to `address` only; Host and TLS server name stay the URL's. */
function pinnedAgent(pinned: ResolvedAddress): Agent {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  return new Agent({ connect: { lookup }, connections: 1 });
}

function nextUrl(location: string, current: URL, shown: string): URL {
  let next: URL;
  try {
    next = new URL(location, current);
  } catch {
    throw fetchFailed(shown, "the server redirected to an invalid URL");
  }
  if (next.protocol !== "http:" && next.protocol !== "https:") {
    throw fetchFailed(shown, "the server redirected to a URL that is neither http nor https");
  }
  return next;
}

async function readBounded(
  response: Awaited<ReturnType<typeof request>>,
  shown: string,
  maxBytes: number,
): Promise<Buffer> {
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
  return Buffer.concat(chunks);
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
