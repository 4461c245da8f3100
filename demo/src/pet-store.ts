/**
 * The demo's backend: a small in-memory pet store implementing the Pet Store OpenAPI document of
 * crds/samples (the same document the samples use), which it also serves at /openapi.json.
 * Below /keyed it is the same store behind a per-user key: an `X-Pet-Key` header is required
 * (any value but `revoked`), for the demo of keys elicited from each user.
 * `node demo/src/pet-store.ts` runs it on ATRIUM_DEMO_PORT (7780).
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { petstoreOpenApi } from "@atrium/crds";
import { parse } from "yaml";

export function demoOpenApi(): Record<string, unknown> {
  return parse(petstoreOpenApi()) as Record<string, unknown>;
}

interface Pet {
  id: number;
  name: string;
  status: "available" | "sold";
}

export async function startDemoBackend(port: number): Promise<{ server: Server; url: string }> {
  const pets = new Map<number, Pet>([
    [1, { id: 1, name: "Rex", status: "available" }],
    [2, { id: 2, name: "Whiskers", status: "available" }],
    [3, { id: 3, name: "Goldie", status: "sold" }],
  ]);
  let nextId = 4;
  const send = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, body === undefined ? {} : { "content-type": "application/json" });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://demo");
      let path = url.pathname;
      if (path.startsWith("/keyed/")) {
        const key = req.headers["x-pet-key"];
        if (typeof key !== "string" || key === "" || key === "revoked")
          return send(res, 401, { error: "this pet store needs your own key in X-Pet-Key" });
        path = path.slice("/keyed".length);
      }
      const id = Number(/^\/pets\/(\d+)$/.exec(path)?.[1]);
      // Health endpoints like the other stack processes, so `atrium status` treats all alike.
      if (path === "/q/health/live" || path === "/q/health/ready")
        return send(res, 200, { status: "UP", version: "demo" });
      if (path === "/openapi.json") {
        // The port listened on, not the one asked for (0 asks for a free one).
        const { port: actual } = server.address() as AddressInfo;
        return send(res, 200, { ...demoOpenApi(), servers: [{ url: `http://127.0.0.1:${actual}` }] });
      }
      if (path === "/pets" && req.method === "GET") {
        const status = url.searchParams.get("status");
        return send(
          res,
          200,
          [...pets.values()].filter((pet) => !status || pet.status === status),
        );
      }
      if (path === "/pets" && req.method === "POST") {
        try {
          const body = JSON.parse(text) as Partial<Pet>;
          if (typeof body.name !== "string") return send(res, 400, { error: "name is required" });
          const pet: Pet = { id: nextId++, name: body.name, status: body.status === "sold" ? "sold" : "available" };
          pets.set(pet.id, pet);
          return send(res, 201, pet);
        } catch {
          return send(res, 400, { error: "the body must be JSON" });
        }
      }
      if (id && req.method === "GET")
        return pets.has(id) ? send(res, 200, pets.get(id)) : send(res, 404, { error: `no pet ${id}` });
      if (id && req.method === "DELETE")
        return pets.delete(id) ? send(res, 204) : send(res, 404, { error: `no pet ${id}` });
      send(res, 404, { error: `no route ${req.method} ${path}` });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const actual = (server.address() as AddressInfo).port;
  return { server, url: `http://127.0.0.1:${actual}` };
}

if (import.meta.main) {
  const port = Number(process.env.ATRIUM_DEMO_PORT ?? 7780);
  const { server, url } = await startDemoBackend(port);
  console.log(`demo pet store on ${url} (OpenAPI at ${url}/openapi.json)`);
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => server.close(() => process.exit(0)));
}
