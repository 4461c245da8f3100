/**
 * The poll rounds of backend-fetched resources, with a read that is a plain function: the first
 * read is the baseline, a new digest is a change, a 304 or a failed read is none, a resource is
 * read once per interval, and only resources with pollSeconds are polled; a resource whose path or
 * backend changed starts from a new baseline.
 */
import { describe, expect, it } from "vitest";
import type { ServedExposition } from "../registry.ts";
import { type PollRead, polledResources, ResourcePolling } from "./resource-polling.ts";

const served = {
  exposition: {
    id: "e1",
    plan: { backendEndpoint: "http://127.0.0.1:9/api" },
    resources: [
      { uri: "pets://all", name: "all", fromBackend: { path: "/pets", pollSeconds: 5 } },
      { uri: "docs://policy", name: "policy", text: "Adults only." },
    ],
  },
} as unknown as ServedExposition;

describe("ResourcePolling", () => {
  it("reports a change of content after the baseline, once per interval, for polled resources only", async () => {
    const answers: Awaited<ReturnType<PollRead>>[] = [
      { notModified: false, etag: '"1"', digest: "a" },
      { notModified: true },
      undefined,
      { notModified: false, etag: '"2"', digest: "b" },
    ];
    const reads: { path: string; etag: string | undefined }[] = [];
    const updates: string[] = [];
    const polling = new ResourcePolling(
      async (_served, path, etag) => {
        reads.push({ path, etag });
        return answers.shift();
      },
      () => polledResources(served).map((resource) => ({ served, resource })),
      (id, uri) => updates.push(`${id} ${uri}`),
    );
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    let now = 1_000_000;
    polling.tick(now);
    await settle();
    expect(reads).toEqual([{ path: "/pets", etag: undefined }]);
    // Not due yet: the interval counts from the end of the last read.
    now += 1_000;
    polling.tick(now);
    await settle();
    expect(reads).toHaveLength(1);
    for (let round = 0; round < 3; round++) {
      now = Date.now() + 5_000;
      polling.tick(now);
      await settle();
    }
    expect(reads.map((r) => r.etag)).toEqual([undefined, '"1"', '"1"', '"1"']);
    expect(updates).toEqual(["e1 pets://all"]);
  });
});

describe("polledResources", () => {
  it("lists only the resources with pollSeconds", () => {
    expect(polledResources(served).map((r) => r.uri)).toEqual(["pets://all"]);
  });
});

describe("a polled resource that changed", () => {
  it("starts from a new baseline when its path or backend changed (no old ETag, no update)", async () => {
    const version = (path: string, backendEndpoint: string) =>
      ({
        exposition: {
          id: "e1",
          plan: { backendEndpoint },
          resources: [{ uri: "pets://all", name: "all", fromBackend: { path, pollSeconds: 5 } }],
        },
      }) as unknown as ServedExposition;
    let current = version("/pets", "http://127.0.0.1:9/api");
    const reads: { path: string; etag: string | undefined }[] = [];
    const updates: string[] = [];
    let digest = 0;
    const polling = new ResourcePolling(
      async (_served, path, etag) => {
        reads.push({ path, etag });
        digest += 1;
        return { notModified: false, etag: `"${digest}"`, digest: String(digest) };
      },
      () => polledResources(current).map((resource) => ({ served: current, resource })),
      (id, uri) => updates.push(`${id} ${uri}`),
    );
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    polling.tick(Date.now());
    await settle();
    current = version("/animals", "http://127.0.0.1:9/api");
    polling.tick(Date.now() + 10_000);
    await settle();
    current = version("/animals", "http://127.0.0.1:9/v2");
    polling.tick(Date.now() + 20_000);
    await settle();
    expect(reads).toEqual([
      { path: "/pets", etag: undefined },
      { path: "/animals", etag: undefined },
      { path: "/animals", etag: undefined },
    ]);
    expect(updates).toEqual([]);
    // The same resource read again: its ETag is sent, and a new digest is a change.
    polling.tick(Date.now() + 30_000);
    await settle();
    expect(reads.at(-1)).toEqual({ path: "/animals", etag: '"3"' });
    expect(updates).toEqual(["e1 pets://all"]);
  });
});
