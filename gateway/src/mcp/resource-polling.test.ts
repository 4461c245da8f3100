/**
 * The poll rounds of backend-fetched resources, with a read that is a plain function: the first
 * read is the baseline, a new digest is a change, a 304 or a failed read is none, a resource is
 * read once per interval however many streams subscribe, and only resources with pollSeconds.
 */
import { describe, expect, it } from "vitest";
import type { ServedExposition } from "../registry.ts";
import { type PollRead, ResourcePolling } from "./resource-polling.ts";

const served = {
  exposition: {
    id: "e1",
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
      () => [
        { served, uri: "pets://all" },
        { served, uri: "pets://all" },
        { served, uri: "docs://policy" },
      ],
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
