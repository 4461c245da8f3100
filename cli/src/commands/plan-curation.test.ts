/**
 * `atrium config create/update --tool-overrides FILE --max-result-bytes N` against a real control
 * plane: YAML and JSON files, what a bad file or a refused override says, and removing both.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Stack } from "@atrium/gateway/testing";
import { describe, expect, it } from "vitest";
import { fails, json, ok, row, withCliStack } from "../testing.ts";

let stack: Stack;
const atrium = withCliStack((cli) => ({ stack } = cli));
const folder = mkdtempSync(join(tmpdir(), "atrium-curation-"));
const file = (name: string, text: string) => {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
};

describe("config --tool-overrides and --max-result-bytes", () => {
  it("creates a plan from a YAML file, replaces it from a JSON one, and removes both", async () => {
    const yaml = file(
      "overrides.yaml",
      "getPet:\n  name: get_pet\n  description: One pet, by id.\n  fixedArguments:\n    petId: 1\n",
    );
    const created = json(
      await atrium([
        "config",
        "create",
        "curated",
        "--serviceId",
        stack.serviceId,
        "--backendEndpoint",
        stack.backend.url,
        "--tool-overrides",
        yaml,
        "--max-result-bytes",
        "65536",
        "-o",
        "json",
      ]),
    );
    expect(created).toMatchObject({
      toolOverrides: { getPet: { name: "get_pet", description: "One pet, by id.", fixedArguments: { petId: 1 } } },
      maxResultBytes: 65536,
    });
    const shown = ok(await atrium(["config", "get", created.id]));
    expect(row(shown, "TOOL OVERRIDES")).toBe("getPet → get_pet (described; fixed petId)");
    expect(row(shown, "MAX RESULT BYTES")).toBe("65536 bytes per result");

    const jsonFile = file("overrides.json", JSON.stringify({ listPets: { title: "Pets", maxResultBytes: 4096 } }));
    const updated = json(await atrium(["config", "update", created.id, "--tool-overrides", jsonFile, "-o", "json"]));
    expect(updated.toolOverrides).toEqual({ listPets: { title: "Pets", maxResultBytes: 4096 } });
    expect(updated.maxResultBytes).toBe(65536);

    const removed = json(
      await atrium(["config", "update", created.id, "--no-tool-overrides", "--no-max-result-bytes", "-o", "json"]),
    );
    expect(removed.toolOverrides).toBeUndefined();
    expect(removed.maxResultBytes).toBeUndefined();
  });

  it("says what is wrong with a file, and passes on the server's located refusals", async () => {
    const base = ["config", "create", "bad", "--serviceId", stack.serviceId, "--backendEndpoint", stack.backend.url];
    fails(await atrium([...base, "--tool-overrides", join(folder, "missing.yaml")]), 1, "no such file");
    fails(
      await atrium([...base, "--tool-overrides", file("list.yaml", "- a\n- b\n")]),
      2,
      "must hold a map of tool names",
    );
    fails(await atrium([...base, "--tool-overrides", file("broken.json", "{ nope: [")]), 2, "not YAML or JSON");
    fails(
      await atrium([...base, "--tool-overrides", file("unknown.yaml", "nope:\n  title: x\n")]),
      1,
      "body.toolOverrides.nope: no tool is named nope",
    );
    fails(await atrium([...base, "--max-result-bytes", "12"]), 1, "body.maxResultBytes");
    fails(await atrium([...base, "--max-result-bytes", "many"]), 2, "many");
  });
});
