/**
 * The backend request of a tool call, and where it goes.
 *
 * `compileOperationRequest` turns an operation into a builder once; a call then only serializes
 * its arguments (path, query, headers, body; see serialize.ts, body.ts, path.ts).
 *
 * `joinBackendUrl` appends such a path to the backend endpoint's base path (an empty path is the
 * endpoint itself, where a GraphQL tool posts: graphql-tool.ts). It returns strings,
 * not a WHATWG `URL`: the URL parser resolves `..`, and also `%2E%2E`, so a `URL` could not hold a
 * path that is guaranteed to stay under the base. Send `path` as the request target to `origin`
 * (undici `Pool`/`Client` `request({ path })` sends it verbatim); never re-parse `href` to send it.
 */
import { type BoundParameter, isSettableHeader, mediaTypeOf, openApiPlaceholder } from "@atrium/contract/tool-schema";
import type { GrpcRequest } from "../grpc/answer.ts";
import { type BodySerializer, bodySerializer } from "./body.ts";
import { type CompiledPath, compilePath } from "./path.ts";
import { headerSerializer, pathSerializer, type QueryAppender, queryAppender } from "./serialize.ts";
import type { Operation } from "./source.ts";

export type BackendRequest = {
  method: string;
  /**
   * Starts with `/`, already encoded, query string included; relative to the endpoint's base path.
   * `""` is the endpoint's own URL, nothing appended.
   */
  path: string;
  /** Lower-case names. `content-type` is not among them: it is `contentType`. */
  headers: Record<string, string>;
  body?: string | Buffer;
  contentType?: string;
  /** Set by a gRPC tool: the call goes to the plan's gRPC endpoint on `path` (`/<service>/<method>`), not over HTTP. */
  grpc?: GrpcRequest;
};

export type RequestBuilder = (args: Record<string, unknown>) => BackendRequest;

export type OperationRequest = {
  build: RequestBuilder;
  /** Violations of arguments that would make a path segment empty, `.` or `..` (see path.ts). */
  checkPath(args: Record<string, unknown>): string[];
};

/**
 * The request builder of an operation. `parameters` are the path, query and header parameters
 * exposed as arguments; `bodyProperty` names the argument carrying the request body.
 */
export function compileOperationRequest(
  operation: Pick<Operation, "method" | "path" | "requestBody" | "responses">,
  parameters: BoundParameter[],
  bodyProperty: string | undefined,
): OperationRequest {
  const path = compileOperationPath(operation.path, parameters);
  const query: { property: string; append: QueryAppender }[] = [];
  const headers: { property: string; name: string; serialize: (value: unknown) => string }[] = [];
  for (const { parameter, property } of parameters) {
    if (parameter.in === "query") query.push({ property, append: queryAppender(parameter) });
    if (parameter.in === "header" && isSettableHeader(parameter.name)) {
      headers.push({ property, name: parameter.name.toLowerCase(), serialize: headerSerializer(parameter) });
    }
  }
  const accept = acceptHeader(operation.responses);
  const body: BodySerializer | undefined =
    operation.requestBody && bodyProperty ? bodySerializer(operation.requestBody) : undefined;
  const { method } = operation;

  const build: RequestBuilder = (args) => {
    let target = path.render(args);
    if (query.length > 0) {
      const pairs: string[] = [];
      for (const { property, append } of query) {
        const value = args[property];
        if (value !== undefined) append(value, pairs);
      }
      if (pairs.length > 0) target += `?${pairs.join("&")}`;
    }
    const requestHeaders: Record<string, string> = accept ? { accept } : {};
    for (const { property, name, serialize } of headers) {
      const value = args[property];
      if (value !== undefined) requestHeaders[name] = serialize(value);
    }
    const request: BackendRequest = { method, path: target, headers: requestHeaders };
    const bodyValue = bodyProperty === undefined ? undefined : args[bodyProperty];
    if (body && bodyValue !== undefined) {
      const serialized = body(bodyValue);
      request.body = serialized.body;
      request.contentType = serialized.contentType;
    }
    return request;
  };
  return { build, checkPath: path.check };
}

/** The operation's path template; a variable without a declared parameter stays literal text. */
function compileOperationPath(template: string, parameters: BoundParameter[]): CompiledPath {
  const byName = new Map(
    parameters
      .filter(({ parameter }) => parameter.in === "path")
      .map(({ parameter, property }) => [parameter.name, { property, parameter }]),
  );
  return compilePath(template, openApiPlaceholder, (name) => {
    const bound = byName.get(name);
    return bound && { property: bound.property, encode: pathSerializer(bound.parameter) };
  });
}

/** Every media type the operation's responses declare, in document order. */
function acceptHeader(responses: Operation["responses"]): string | undefined {
  const types = new Set<string>();
  for (const response of responses) if (response.contentType) types.add(mediaTypeOf(response.contentType));
  return types.size > 0 ? [...types].join(", ") : undefined;
}

/** A backend endpoint split once into what every request to it shares. */
export type BackendBase = {
  /** `https://host:port` */
  origin: string;
  /** The endpoint's path without a trailing `/`: `""` or e.g. `/api/v1`. */
  basePath: string;
  /** The endpoint's path as written: `/` at least, e.g. `/graphql/`. */
  ownPath: string;
  /** The endpoint's own query string (without `?`), put before each request's: `""` when none. */
  query: string;
};

export type BackendUrl = {
  origin: string;
  /** The request target: the base path, the request's path, the query string. */
  path: string;
  /** `origin` + `path`, for logs and messages. */
  href: string;
};

export function parseBackendEndpoint(endpoint: string): BackendBase {
  const url = new URL(endpoint);
  if (url.protocol === "grpc:" || url.protocol === "grpcs:") return grpcBackend(url, endpoint);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`backend endpoint must be an http(s) URL: ${endpoint}`);
  }
  let basePath = url.pathname;
  while (basePath.endsWith("/")) basePath = basePath.slice(0, -1);
  return { origin: url.origin, basePath, ownPath: url.pathname, query: url.search.slice(1) };
}

/**
 * A gRPC endpoint, `grpc://host:port` (h2c) or `grpcs://host:port` (TLS): its origin is that text
 * (the URL parser gives such schemes no origin of their own); calls go to `/<service>/<method>`.
 */
function grpcBackend(url: URL, endpoint: string): BackendBase {
  if ((url.pathname !== "" && url.pathname !== "/") || url.search || url.hash || url.username || !url.host) {
    throw new TypeError(`a gRPC backend endpoint is grpc://host:port or grpcs://host:port, nothing after: ${endpoint}`);
  }
  return { origin: `${url.protocol}//${url.host}`, basePath: "", ownPath: "/", query: "" };
}

/** A segment that is `.` or `..`, also percent-encoded (`%2e`, `.%2E`, …): what URL parsers resolve. */
const dotSegment = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

/**
 * `backend`'s base path + `path` (from a BackendRequest); `""` is the endpoint itself. Throws a
 * TypeError when `path` does not start with `/`, holds a dot segment (even encoded), a `\` or a
 * `#`: such a path could resolve outside the base path. BackendRequests of validated arguments
 * never do.
 */
export function joinBackendUrl(backend: string | BackendBase, path: string): BackendUrl {
  const base = typeof backend === "string" ? parseBackendEndpoint(backend) : backend;
  if (path === "") {
    const own = base.query ? `${base.ownPath}?${base.query}` : base.ownPath;
    return { origin: base.origin, path: own, href: base.origin + own };
  }
  const queryStart = path.indexOf("?");
  const pathname = queryStart < 0 ? path : path.slice(0, queryStart);
  if (!pathname.startsWith("/") || dotSegment.test(pathname) || pathname.includes("\\") || path.includes("#")) {
    throw new TypeError(`request path would leave the backend's base path: ${path}`);
  }
  let target = base.basePath + pathname;
  const search = queryStart < 0 ? "" : path.slice(queryStart + 1);
  const query = base.query && search ? `${base.query}&${search}` : base.query || search;
  if (query) target += `?${query}`;
  return { origin: base.origin, path: target, href: base.origin + target };
}
