import { bindParameters } from "@atrium/contract/tool-schema";
import { describe, expect, it } from "vitest";
import { operation } from "./fixtures.ts";
import { compileOperationRequest, joinBackendUrl, parseBackendEndpoint } from "./request.ts";
import type { Operation, OperationParameter } from "./source.ts";

/** The request builder of an operation, arguments named as the tool names them. */
function builder(fields: Pick<Operation, "method" | "path"> & Partial<Operation>) {
  const op = operation({ operationId: "op", ...fields });
  return compileOperationRequest(op, bindParameters(op), op.requestBody ? "body" : undefined);
}

const pathParameter = (name: string, extra: Partial<OperationParameter> = {}): OperationParameter => ({
  name,
  in: "path",
  required: true,
  schema: { type: "string" },
  ...extra,
});
const queryParameter = (name: string, extra: Partial<OperationParameter> = {}): OperationParameter => ({
  name,
  in: "query",
  required: false,
  schema: { type: "array", items: { type: "string" } },
  ...extra,
});

describe("path parameters", () => {
  const getFile = builder({ method: "GET", path: "/files/{name}/raw", parameters: [pathParameter("name")] });
  const path = (name: unknown) => getFile.build({ name }).path;

  it("keeps every value inside its own segment", () => {
    expect(path("report.pdf")).toBe("/files/report.pdf/raw");
    expect(path("../admin")).toBe("/files/..%2Fadmin/raw");
    expect(path("a/b")).toBe("/files/a%2Fb/raw");
    expect(path("%2e%2e")).toBe("/files/%252e%252e/raw");
    expect(path("..%2F..%2Fetc")).toBe("/files/..%252F..%252Fetc/raw");
    expect(path("x?admin=1#frag")).toBe("/files/x%3Fadmin%3D1%23frag/raw");
    expect(path("a\\..\\b")).toBe("/files/a%5C..%5Cb/raw");
    expect(path("日本 語")).toBe("/files/%E6%97%A5%E6%9C%AC%20%E8%AA%9E/raw");
    expect(path("\ud800")).toBe("/files/%EF%BF%BD/raw"); // a lone surrogate cannot make encodeURIComponent throw
    expect(path(42)).toBe("/files/42/raw");
  });

  it("encodes a whole . or .. segment as %2E / %2E%2E", () => {
    expect(path("..")).toBe("/files/%2E%2E/raw");
    expect(path(".")).toBe("/files/%2E/raw");
    expect(path("...")).toBe("/files/.../raw");
    const twoVariables = builder({
      method: "GET",
      path: "/v/{a}{b}",
      parameters: [pathParameter("a"), pathParameter("b")],
    });
    expect(twoVariables.build({ a: ".", b: "." }).path).toBe("/v/%2E%2E");
    expect(twoVariables.checkPath({ a: ".", b: "." })).toEqual([
      'a, b: must not be ".." (it would leave the API\'s path)',
    ]);
  });

  it("honours simple, label and matrix styles", () => {
    const styled = (style: OperationParameter["style"], explode: boolean) =>
      builder({ method: "GET", path: "/p/{v}", parameters: [pathParameter("v", { style, explode })] });
    const cases: [OperationParameter["style"], boolean, unknown, string][] = [
      [undefined, false, ["a", "b/c"], "/p/a,b%2Fc"],
      ["simple", true, { x: 1, y: "z" }, "/p/x=1,y=z"],
      ["simple", false, { x: 1, y: "z" }, "/p/x,1,y,z"],
      ["label", false, ["a", "b"], "/p/.a,b"],
      ["label", true, ["a", "b"], "/p/.a.b"],
      ["matrix", false, "v1", "/p/;v=v1"],
      ["matrix", true, ["a", "b"], "/p/;v=a;v=b"],
      ["matrix", false, ["a", "b"], "/p/;v=a,b"],
    ];
    for (const [style, explode, value, expected] of cases)
      expect(styled(style, explode).build({ v: value }).path).toBe(expected);
  });
});

describe("query parameters", () => {
  const search = (parameter: OperationParameter, value: unknown) =>
    builder({ method: "GET", path: "/search", parameters: [parameter] }).build({ [parameter.name]: value }).path;

  it("explodes arrays by default and skips undefined values and empty arrays", () => {
    expect(search(queryParameter("tag"), ["a", "b c"])).toBe("/search?tag=a&tag=b%20c");
    expect(search(queryParameter("tag"), [])).toBe("/search");
    const two = builder({ method: "GET", path: "/s", parameters: [queryParameter("a"), queryParameter("b")] });
    expect(two.build({ b: ["x"] }).path).toBe("/s?b=x");
    expect(two.build({}).path).toBe("/s");
  });

  it("honours form, spaceDelimited and pipeDelimited without explode", () => {
    expect(search(queryParameter("tag", { explode: false }), ["a", "b,c"])).toBe("/search?tag=a,b%2Cc");
    expect(search(queryParameter("tag", { style: "spaceDelimited" }), ["a", "b"])).toBe("/search?tag=a%20b");
    expect(search(queryParameter("tag", { style: "pipeDelimited" }), ["a", "b|c"])).toBe("/search?tag=a|b%7Cc");
    expect(search(queryParameter("tag", { style: "pipeDelimited", explode: true }), ["a", "b"])).toBe(
      "/search?tag=a&tag=b",
    );
  });

  it("serializes objects as form fields or deepObject", () => {
    const object = { schema: { type: "object" } };
    expect(search(queryParameter("f", object), { color: "red", size: 2 })).toBe("/search?color=red&size=2");
    expect(search(queryParameter("f", { ...object, explode: false }), { color: "red", size: 2 })).toBe(
      "/search?f=color,red,size,2",
    );
    expect(
      search(queryParameter("filter", { ...object, style: "deepObject" }), { color: "red", tags: ["a", "b"] }),
    ).toBe("/search?filter[color]=red&filter[tags]=a&filter[tags]=b");
  });

  it("encodes what would break the query string, sends a content-described parameter as JSON", () => {
    expect(search(queryParameter("q", { schema: { type: "string" } }), "a&b=c#d+e")).toBe(
      "/search?q=a%26b%3Dc%23d%2Be",
    );
    expect(search(queryParameter("q", { schema: { type: "string" } }), null)).toBe("/search?q=");
    expect(search(queryParameter("q", { schema: { type: "boolean" } }), false)).toBe("/search?q=false");
    expect(search(queryParameter("filter", { contentType: "application/json" }), { color: "red" })).toBe(
      "/search?filter=%7B%22color%22%3A%22red%22%7D",
    );
  });
});

describe("headers and bodies", () => {
  it("sends header parameters as strings that cannot split the header", () => {
    const op = builder({
      method: "GET",
      path: "/h",
      parameters: [
        { name: "X-Trace", in: "header", required: false, schema: { type: "string" } },
        { name: "X-Tags", in: "header", required: false, schema: { type: "array" } },
        { name: "X-Limit", in: "header", required: false, schema: { type: "integer" } },
      ],
      responses: [
        { status: "200", contentType: "application/json" },
        { status: "404", contentType: "application/problem+json" },
      ],
    });
    expect(op.build({ "X-Trace": "a\r\nX-Admin: 1", "X-Tags": ["a", "b"], "X-Limit": 5 })).toEqual({
      method: "GET",
      path: "/h",
      headers: {
        accept: "application/json, application/problem+json",
        "x-trace": "a%0D%0AX-Admin: 1",
        "x-tags": "a,b",
        "x-limit": "5",
      },
    });
    expect(op.build({ "X-Trace": "café ☕" }).headers["x-trace"]).toBe("caf%C3%A9 %E2%98%95");
  });

  it("serializes a JSON body once and leaves out an absent optional body", () => {
    const op = builder({
      method: "PATCH",
      path: "/pets/1",
      requestBody: { required: false, contentType: "application/merge-patch+json", schema: { type: "object" } },
    });
    expect(op.build({ body: { name: "Rex", tag: null } })).toMatchObject({
      body: '{"name":"Rex","tag":null}',
      contentType: "application/merge-patch+json",
    });
    expect(op.build({})).toEqual({ method: "PATCH", path: "/pets/1", headers: {} });
  });

  it("form-encodes application/x-www-form-urlencoded bodies and passes strings through", () => {
    const op = builder({
      method: "POST",
      path: "/login",
      requestBody: { required: true, contentType: "application/x-www-form-urlencoded", schema: { type: "object" } },
    });
    expect(op.build({ body: { user: "a b", scope: ["r", "w"], extra: { x: 1 }, skip: undefined } }).body).toBe(
      "user=a%20b&scope=r&scope=w&extra=%7B%22x%22%3A1%7D",
    );
    expect(op.build({ body: "user=x" }).body).toBe("user=x");
  });

  it("builds multipart/form-data with a boundary of its own", () => {
    const op = builder({
      method: "POST",
      path: "/upload",
      requestBody: {
        required: true,
        contentType: "multipart/form-data",
        schema: {
          type: "object",
          properties: { file: { type: "string", format: "binary" }, note: { type: "string" } },
        },
      },
    });
    const request = op.build({ body: { note: 'say "hi"', file: "bytes" } });
    const boundary = /boundary=(.+)$/.exec(request.contentType ?? "")?.[1];
    expect(boundary).toMatch(/^atrium-[0-9a-f-]{36}$/);
    expect(request.body).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nsay "hi"\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="file"\r\nContent-Type: application/octet-stream\r\n\r\nbytes\r\n` +
        `--${boundary}--\r\n`,
    );
  });

  it("decodes a base64 body for a binary media type", () => {
    const op = builder({
      method: "PUT",
      path: "/photo",
      requestBody: { required: true, contentType: "image/png", schema: { type: "string", contentEncoding: "base64" } },
    });
    expect(op.build({ body: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString("base64") }).body).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    );
    const text = builder({
      method: "PUT",
      path: "/notes",
      requestBody: { required: true, contentType: "text/plain", schema: { type: "string" } },
    });
    expect(text.build({ body: "plain words" })).toMatchObject({ body: "plain words", contentType: "text/plain" });
  });
});

describe("joinBackendUrl", () => {
  it("appends the request's path to the endpoint's base path", () => {
    expect(joinBackendUrl("https://h/api/v1", "/pets/1")).toEqual({
      origin: "https://h",
      path: "/api/v1/pets/1",
      href: "https://h/api/v1/pets/1",
    });
    expect(joinBackendUrl("https://h/api/v1/", "/pets?limit=2").path).toBe("/api/v1/pets?limit=2");
    expect(joinBackendUrl("http://h:8080", "/").path).toBe("/");
    expect(joinBackendUrl("https://h/api?key=k", "/pets?limit=2").path).toBe("/api/pets?key=k&limit=2");
    expect(joinBackendUrl(parseBackendEndpoint("https://h/api?key=k"), "/pets").path).toBe("/api/pets?key=k");
  });

  it("refuses any path that could resolve outside the base path", () => {
    for (const path of [
      "/../admin",
      "/a/..",
      "/.",
      "/a/%2E%2E/b",
      "/a/.%2e",
      "/%2e",
      "pets",
      "/a\\..\\b",
      "/a#x",
      "/a?b#c",
    ]) {
      expect(() => joinBackendUrl("https://h/api/v1", path), path).toThrow(TypeError);
    }
    expect(() => joinBackendUrl("file:///etc", "/passwd")).toThrow(TypeError);
  });

  it("never leaves the base path, whatever the arguments (raw path and as a URL parser reads it)", () => {
    const getFile = builder({
      method: "GET",
      path: "/files/{dir}/{name}",
      parameters: [pathParameter("dir"), pathParameter("name"), queryParameter("q", { schema: { type: "string" } })],
    });
    const base = parseBackendEndpoint("https://h/api/v1");
    const hostile = [
      "..",
      ".",
      "../admin",
      "../../",
      "%2e%2e",
      "%2E%2E%2F",
      ".%2e",
      "..%2F",
      "a/b",
      "/",
      "//evil.example",
      "\\..\\",
      "?x=1",
      "#top",
      "%00",
      "..;",
      "\u2025",
      "．．",
      "",
    ];
    let refused = 0;
    for (const dir of hostile) {
      for (const name of hostile) {
        const request = getFile.build({ dir, name, q: `${dir}${name}` });
        let url: ReturnType<typeof joinBackendUrl>;
        try {
          url = joinBackendUrl(base, request.path);
        } catch {
          refused++;
          // refused paths are exactly those validation rejects first
          expect(getFile.checkPath({ dir, name }).length).toBeGreaterThan(0);
          continue;
        }
        expect(url.path.startsWith("/api/v1/files/")).toBe(true);
        const parsed = new URL(url.href);
        expect(parsed.host).toBe("h");
        expect(parsed.pathname.startsWith("/api/v1/files/")).toBe(true);
        expect(parsed.pathname.split("/")).toHaveLength(6); // "", api, v1, files, dir, name
      }
    }
    expect(refused).toBeGreaterThan(0);
  });
});
