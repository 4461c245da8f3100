/**
 * The shared REST client against a real HTTP server on loopback: what it sends (path below
 * /api/v1, bearer token, JSON) and how it reads each kind of answer.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { RestClient, RestProblemError, RestUnreachableError, segment } from "./rest-client.ts";

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
}

const answers: Record<string, { status: number; type?: string; text: string; delayMs?: number }> = {
  "/base/api/v1/things/1": { status: 200, text: JSON.stringify({ id: "1", name: "one", extra: true }) },
  "/base/api/v1/missing": {
    status: 404,
    type: "application/problem+json",
    text: JSON.stringify({ status: 404, code: "NOT_FOUND", detail: "Thing 'x' does not exist", instance: "/x" }),
  },
  "/base/api/v1/broken": { status: 502, type: "text/html", text: "<html>bad gateway</html>" },
  "/base/api/v1/odd": { status: 200, text: JSON.stringify({ id: 7 }) },
  "/base/api/v1/slow": { status: 200, text: "{}", delayMs: 2_000 },
  "/base/api/v1/gone": { status: 204, text: "" },
};

describe("RestClient", () => {
  let server: Server;
  let base: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    server = createServer(async (request: IncomingMessage, response) => {
      let body = "";
      for await (const chunk of request) body += chunk;
      seen.push({
        method: request.method ?? "",
        url: request.url ?? "",
        authorization: request.headers.authorization,
        contentType: request.headers["content-type"],
        body,
      });
      const path = (request.url ?? "").split("?")[0] ?? "";
      const answer = answers[path] ?? { status: 201, text: JSON.stringify({ id: "new", name: "made" }) };
      if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
      response.writeHead(answer.status, { "content-type": answer.type ?? "application/json" });
      response.end(answer.text);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/base/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const thing = z.object({ id: z.string(), name: z.string() });

  it("reads a success with the contract's schema, below /api/v1 of the base URL, with the token", async () => {
    const client = new RestClient({ baseUrl: base, token: async () => "secret-token" });
    expect(await client.get(`/things/${segment("1")}`, thing)).toEqual({ id: "1", name: "one" });
    expect(seen.at(-1)).toMatchObject({
      method: "GET",
      url: "/base/api/v1/things/1",
      authorization: "Bearer secret-token",
    });
  });

  it("sends JSON bodies and query parameters", async () => {
    const client = new RestClient({ baseUrl: base, token: "t" });
    expect(await client.post("/things", { name: "made" }, thing)).toEqual({ id: "new", name: "made" });
    expect(seen.at(-1)).toMatchObject({ contentType: "application/json", body: '{"name":"made"}' });
    await client.send("POST", "/uploads", {
      query: { name: "a b", skip: undefined },
      rawBody: { text: "x: 1", contentType: "application/yaml" },
    });
    expect(seen.at(-1)).toMatchObject({
      url: "/base/api/v1/uploads?name=a+b",
      contentType: "application/yaml",
      body: "x: 1",
    });
  });

  it("turns a problem document into a RestProblemError that keeps it", async () => {
    const error = await new RestClient({ baseUrl: base }).get("/missing", thing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RestProblemError);
    expect(error).toMatchObject({ status: 404, problem: { code: "NOT_FOUND", detail: "Thing 'x' does not exist" } });
    expect(seen.at(-1)?.authorization).toBeUndefined();
  });

  it("keeps the text of an error answer that is no problem document", async () => {
    const error = await new RestClient({ baseUrl: base }).get("/broken", thing).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, problem: undefined, text: "<html>bad gateway</html>" });
  });

  it("refuses a success the contract does not describe, naming the field", async () => {
    const error = await new RestClient({ baseUrl: base }).get("/odd", thing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RestUnreachableError);
    expect((error as Error).message).toMatch(
      /GET \/odd answered 200 with something the contract does not describe \(id: /,
    );
  });

  it("resolves tolerated statuses as undefined, and says whether a delete found something", async () => {
    const client = new RestClient({ baseUrl: base });
    expect(await client.get("/missing", thing, { tolerate: [404] })).toBeUndefined();
    expect(await client.delete("/missing", { tolerate: [404] })).toBe(false);
    expect(await client.delete("/gone", { tolerate: [404] })).toBe(true);
  });

  it("reports a control plane that does not answer, with the error codes", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await new RestClient({ baseUrl: `http://127.0.0.1:${port}` })
      .get("/x", thing)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RestUnreachableError);
    expect((error as RestUnreachableError).codes).toContain("ECONNREFUSED");
  });

  it("gives up after the timeout", async () => {
    const error = await new RestClient({ baseUrl: base, timeoutMs: 200 })
      .get("/slow", z.object({}))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RestUnreachableError);
    expect((error as RestUnreachableError).codes).toContain("UND_ERR_HEADERS_TIMEOUT");
  });

  it("refuses a base URL that is not http(s)", () => {
    expect(() => new RestClient({ baseUrl: "ftp://example.com" })).toThrow("is not an http:// or https:// URL");
  });
});
