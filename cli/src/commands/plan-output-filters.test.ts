/**
 * `atrium config create/update --tool-output-filters FILE` against a real control plane: a YAML
 * file, a JSON one replacing it with a patch the gateway cannot derive a schema through (the
 * write's warning is printed), removal, and the server's located refusals.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Stack } from "@atrium/gateway/testing";
import { describe, expect, it } from "vitest";
import { fails, json, ok, withCliStack } from "../testing.ts";

let stack: Stack;
const atrium = withCliStack((cli) => ({ stack } = cli));
const folder = mkdtempSync(join(tmpdir(), "atrium-output-filters-"));
const file = (name: string, text: string) => {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
};

describe("config --tool-output-filters", () => {
  it("creates a plan from a YAML file, replaces it from a JSON one with a warning, and removes it", async () => {
    const yaml = file("filters.yaml", "getPet:\n  retain: [/id, /name]\n  format: toon\n");
    const create = ["config", "create", "filtered", "--serviceId", stack.serviceId];
    const created = json(
      await atrium([...create, "--backendEndpoint", stack.backend.url, "--tool-output-filters", yaml, "-o", "json"]),
    );
    expect(created.toolOutputFilters).toEqual({ getPet: { retain: ["/id", "/name"], format: "toon" } });

    const patches = { getPet: { patches: [{ op: "remove", path: "/tags/0" }] } };
    const jsonFile = file("filters.json", JSON.stringify(patches));
    const updated = ok(await atrium(["config", "update", created.id, "--tool-output-filters", jsonFile]));
    expect(updated.stderr + updated.stdout).toMatch(
      /warning: toolOutputFilters\.getPet: patches\[0\] \(remove \/tags\/0\)/,
    );

    const removed = json(await atrium(["config", "update", created.id, "--no-tool-output-filters", "-o", "json"]));
    expect(removed.toolOutputFilters).toBeUndefined();
  });

  it("passes on the server's located refusals", async () => {
    const base = ["config", "create", "bad", "--serviceId", stack.serviceId, "--backendEndpoint", stack.backend.url];
    fails(
      await atrium([...base, "--tool-output-filters", file("unknown.yaml", "nope:\n  retain: [/id]\n")]),
      1,
      "body.toolOutputFilters.nope: no tool is named nope",
    );
    fails(
      await atrium([...base, "--tool-output-filters", file("pointer.yaml", "getPet:\n  retain: [id]\n")]),
      1,
      "body.toolOutputFilters.getPet.retain.0",
    );
  });
});
