/**
 * The change hub's snapshots: streams opening together at one revision share one compilation
 * (a fleet connecting at once), and nothing outlives it — a stream opening after a change, or
 * after the compilation ended, gets the Expositions as they are then (issue 17).
 */
import { describe, expect, it } from "vitest";
import { authenticate } from "../auth/principal.ts";
import { DATABASE_KINDS, expose, useIsolatedControlPlane } from "../testing.ts";
import type { CompiledEntry } from "./compile.ts";

describe.each(DATABASE_KINDS)("change hub on %s: snapshots", (kind) => {
  const controlPlane = useIsolatedControlPlane(kind, async (cp) => {
    await expose(cp.admin, "pets");
  });
  const organizationId = async () =>
    (await authenticate(controlPlane().database.db, controlPlane().admin.token)).organizationId;
  const names = (compiled: Map<string, CompiledEntry>) =>
    [...compiled.values()].map((entry) => entry.exposition.name).sort();

  it("shares one compilation among the streams asking at one revision while it runs", async () => {
    const { hub } = controlPlane();
    const organization = await organizationId();
    const revision = await hub.currentRevision();
    const first = hub.snapshot(organization, revision);
    expect(hub.snapshot(organization, revision)).toBe(first);
    expect(hub.snapshot(organization, revision + 1)).not.toBe(first);
    expect(names(await first)).toEqual(["pets"]);
    expect(hub.snapshot(organization, revision)).not.toBe(first);
  });

  it("compiles afresh for a stream opening after a change", async () => {
    const { hub, admin } = controlPlane();
    const organization = await organizationId();
    expect(names(await hub.snapshot(organization, await hub.currentRevision()))).toEqual(["pets"]);
    await expose(admin, "more-pets");
    expect(names(await hub.snapshot(organization, await hub.currentRevision()))).toEqual(["more-pets", "pets"]);
  });
});
