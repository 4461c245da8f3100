import { describe, expect, it } from "vitest";
import { boundaryOf, splitMultipart } from "./multipart.ts";

const split = (text: string, boundary = "b1") => splitMultipart(Buffer.from(text, "latin1"), boundary);
const texts = (result: ReturnType<typeof splitMultipart>) =>
  "parts" in result
    ? result.parts.map((part) => ({ headers: { ...part.headers }, body: part.body.toString() }))
    : result;

describe("boundaryOf", () => {
  it("reads a plain or quoted boundary parameter", () => {
    expect(boundaryOf("multipart/mixed; boundary=abc123")).toBe("abc123");
    expect(boundaryOf('multipart/mixed; charset=x; Boundary="a b:c"')).toBe("a b:c");
    expect(boundaryOf("multipart/mixed")).toBeUndefined();
  });
});

describe("splitMultipart", () => {
  it("splits CRLF parts, ignoring the preamble and epilogue", () => {
    const body =
      'preamble\r\n--b1\r\nContent-Type: text/plain\r\n\r\nhello\r\n--b1\r\ncontent-type: application/json\r\nX-Long: a\r\n  b\r\n\r\n{"a":1}\r\n--b1--\r\nepilogue';
    expect(texts(split(body))).toEqual([
      { headers: { "content-type": "text/plain" }, body: "hello" },
      { headers: { "content-type": "application/json", "x-long": "a b" }, body: '{"a":1}' },
    ]);
  });

  it("accepts bare LF line breaks, headerless and empty parts, and transport padding", () => {
    const body = "--b1  \n\nno headers\n--b1\nContent-Type: text/plain\n\n\n--b1--";
    expect(texts(split(body))).toEqual([
      { headers: {}, body: "no headers" },
      { headers: { "content-type": "text/plain" }, body: "" },
    ]);
  });

  it("keeps binary bytes and decodes base64 transfer encoding", () => {
    const bytes = Buffer.from([0, 255, 13, 10, 45, 45]);
    const body = Buffer.concat([
      Buffer.from("--b1\r\nContent-Type: image/png\r\n\r\n"),
      bytes,
      Buffer.from("\r\n--b1\r\nContent-Transfer-Encoding: BASE64\r\n\r\naGk=\r\n--b1--\r\n"),
    ]);
    const result = splitMultipart(body, "b1");
    if (!("parts" in result)) throw new Error(result.problem);
    expect(result.parts[0]?.body).toEqual(bytes);
    expect(result.parts[1]?.body.toString()).toBe("hi");
  });

  it("only takes a delimiter at the start of a line", () => {
    expect(texts(split("--b1\r\n\r\nsee --b1 here\r\n--b1--"))).toEqual([{ headers: {}, body: "see --b1 here" }]);
  });

  it("stores a header named __proto__ as a header", () => {
    const result = split("--b1\r\n__proto__: x\r\n\r\nbody\r\n--b1--");
    if (!("parts" in result)) throw new Error(result.problem);
    expect(Object.getPrototypeOf(result.parts[0]?.headers)).toBeNull();
    expect(Object.entries(result.parts[0]?.headers ?? {})).toEqual([["__proto__", "x"]]);
  });

  it("parses the first maxParts parts and only counts the others", () => {
    const body = Buffer.from("--b1\r\n\r\none\r\n--b1\r\n\r\ntwo\r\n--b1\r\n\r\nthree\r\n--b1--\r\n");
    const result = splitMultipart(body, "b1", 1);
    if (!("parts" in result)) throw new Error(result.problem);
    expect(result.parts.map((part) => part.body.toString())).toEqual(["one"]);
    expect(result.total).toBe(3);
    expect(splitMultipart(body, "b1")).toMatchObject({ total: 3 });
  });

  it("says what is wrong with a malformed body", () => {
    expect(split("no delimiter at all")).toEqual({ problem: "no part delimiter --b1" });
    expect(split("--b1\r\n\r\nnever closed")).toEqual({ problem: "part 1 has no closing delimiter --b1--" });
    expect(split("--b1junk\r\n\r\nx\r\n--b1--")).toEqual({
      problem: "a delimiter is not followed by a line break (part 1)",
    });
  });
});
