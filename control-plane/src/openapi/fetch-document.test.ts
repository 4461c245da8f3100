/**
 * The SSRF guard of URL imports, against listeners on 127.0.0.2 and 127.0.0.3 and a test
 * resolver: nothing here ever connects outside 127.0.0.0/8. The name used is `localhost`, which
 * the system would resolve to 127.0.0.1 / ::1 from /etc/hosts: a connection that reaches
 * 127.0.0.2 proves it went to the address the guard checked, not to a second resolution.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FetchPolicy, ResolvedAddress } from "./fetch-document.ts";
import { importOpenApi } from "./import.ts";
import { parseAllowHosts } from "./ssrf-policy.ts";
import { importError } from "./test-documents.ts";

const petstore = readFileSync(new URL("./fixtures/petstore-3.1.json", import.meta.url), "utf8");
const secret = "INTERNAL-SECRET-7f3a";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

async function serve(host: string, handler: Handler): Promise<{ server: Server; port: number; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.headers.host} ${request.url}`);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, requests };
}

describe("URL import behind the SSRF guard", () => {
  let main: Awaited<ReturnType<typeof serve>>;
  let other: Awaited<ReturnType<typeof serve>>;
  const lookups: string[] = [];
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    lookups.push(hostname);
    if (hostname === "localhost") return [{ address: "127.0.0.2", family: 4 }];
    throw new Error(`unknown test name ${hostname}`);
  };
  const policy = (allow: string): FetchPolicy => ({ allow: parseAllowHosts(allow), resolve });

  beforeAll(async () => {
    other = await serve("127.0.0.3", (_request, response) => response.end(petstore));
    main = await serve("127.0.0.2", (request, response) => {
      const url = request.url ?? "";
      const hops = /^\/hops\/(\d+)$/.exec(url);
      if (url === "/openapi.json") response.end(petstore);
      else if (hops) {
        const left = Number(hops[1]);
        response.statusCode = 302;
        response.setHeader("location", left === 0 ? "/openapi.json" : `/hops/${left - 1}`);
        response.end();
      } else if (url === "/to-other") {
        response.statusCode = 307;
        response.setHeader("location", `http://127.0.0.3:${other.port}/openapi.json`);
        response.end();
      } else if (url === "/not-openapi") response.end(JSON.stringify({ [secret]: { token: secret } }));
      else if (url === "/not-yaml") response.end(`${secret}: [unclosed, ${secret}`);
      else if (url === "/bad-version") response.end(JSON.stringify({ openapi: secret }));
      else if (url === "/invalid") response.end(petstore.replace('"title"', `"${secret}"`));
      else if (url === "/too-deep") response.end(`{"${secret}":${"[".repeat(200)}${"]".repeat(200)}}`);
      else {
        response.statusCode = 404;
        response.end(secret);
      }
    });
  });
  afterAll(async () => {
    for (const { server } of [main, other]) await new Promise((done) => server.close(done));
  });

  it("refuses a loopback address by default, without connecting", async () => {
    const before = main.requests.length;
    const error = await importError({ url: `http://127.0.0.2:${main.port}/openapi.json` }, { fetchPolicy: policy("") });
    expect(error.code).toBe("OPENAPI_URL_FORBIDDEN");
    expect(error.message).toContain("loopback");
    expect(main.requests.length).toBe(before);
  });

  it("refuses a name that resolves to a refused address, without connecting", async () => {
    const before = main.requests.length;
    const error = await importError({ url: `http://localhost:${main.port}/openapi.json` }, { fetchPolicy: policy("") });
    expect(error.code).toBe("OPENAPI_URL_FORBIDDEN");
    expect(error.message).toContain("localhost resolves to an address that is refused");
    expect(main.requests.length).toBe(before);
  });

  it("connects to the address it checked, with the URL's host name in Host", async () => {
    lookups.length = 0;
    const document = await importOpenApi(
      { url: `http://localhost:${main.port}/openapi.json` },
      { fetchPolicy: policy(`localhost:${main.port}`) },
    );
    expect(document.title).toBe("Petstore 3.1");
    expect(document.servers).toEqual([`http://localhost:${main.port}/api`]);
    expect(lookups).toEqual(["localhost"]); // resolved once, by the guard
    expect(main.requests.at(-1)).toBe(`localhost:${main.port} /openapi.json`);
  });

  it("follows 3 redirects, re-checked, and refuses a fourth", async () => {
    const allowed = { fetchPolicy: policy(`127.0.0.2:${main.port}`) };
    const document = await importOpenApi({ url: `http://127.0.0.2:${main.port}/hops/2` }, allowed);
    expect(document.servers).toEqual([`http://127.0.0.2:${main.port}/api`]);
    const error = await importError({ url: `http://127.0.0.2:${main.port}/hops/3` }, allowed);
    expect(error.code).toBe("OPENAPI_FETCH");
    expect(error.message).toContain("more than 3 redirects");
  });

  it("checks where a redirect leads before following it", async () => {
    const error = await importError(
      { url: `http://127.0.0.2:${main.port}/to-other` },
      { fetchPolicy: policy(`127.0.0.2:${main.port}`) },
    );
    expect(error.code).toBe("OPENAPI_URL_FORBIDDEN");
    expect(error.message).toContain(`http://127.0.0.3:${other.port}/openapi.json`);
    expect(other.requests).toEqual([]);
  });

  it.each(["/not-openapi", "/not-yaml", "/bad-version", "/invalid", "/too-deep", "/missing"])(
    "never echoes what it downloaded (%s)",
    async (path) => {
      const error = await importError(
        { url: `http://127.0.0.2:${main.port}${path}` },
        { fetchPolicy: policy("127.0.0.2") },
      );
      expect(error.message).not.toContain(secret);
      expect(error.message).not.toContain(process.cwd());
      expect(JSON.stringify(error.location ?? {})).not.toContain(secret);
      expect(error.message).toContain(`http://127.0.0.2:${main.port}${path}`);
    },
  );
});
