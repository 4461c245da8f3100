/**
 * `atrium config create/update --graphql-selection-depth N` against a real control plane: a plan
 * on a GraphQL Service (imported with `atrium service import`) takes a depth and changes it; on an
 * OpenAPI Service, or outside 1 to 5, the server's refusal is passed on.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Stack } from "@atrium/gateway/testing";
import { describe, expect, it } from "vitest";
import { fails, json, withCliStack } from "../testing.ts";

let stack: Stack;
const atrium = withCliStack((cli) => ({ stack } = cli));
const schema = join(mkdtempSync(join(tmpdir(), "atrium-graphql-")), "shop.graphql");
writeFileSync(schema, "type Item {\n  id: ID!\n  owner: Item\n}\ntype Query {\n  item(id: ID!): Item\n}\n");

describe("config --graphql-selection-depth", () => {
  it("sets and changes a GraphQL plan's selection depth, and passes on the server's refusals", async () => {
    const service = json(await atrium(["service", "import", schema, "--name", "shop", "--version", "1", "-o", "json"]));
    expect(service.kind).toBe("graphql");
    const create = ["config", "create", "shop", "--serviceId", service.id, "--backendEndpoint", stack.backend.url];
    const created = json(await atrium([...create, "--graphql-selection-depth", "3", "-o", "json"]));
    expect(created.graphql).toEqual({ selectionDepth: 3 });
    const updated = json(
      await atrium(["config", "update", created.id, "--graphql-selection-depth", "1", "-o", "json"]),
    );
    expect(updated.graphql).toEqual({ selectionDepth: 1 });

    const onOpenApi = [
      "config",
      "create",
      "pets",
      "--serviceId",
      stack.serviceId,
      "--backendEndpoint",
      stack.backend.url,
    ];
    fails(await atrium([...onOpenApi, "--graphql-selection-depth", "3"]), 1, "only a plan on a graphql Service");
    fails(
      await atrium([...create.slice(0, 2), "deep", ...create.slice(3), "--graphql-selection-depth", "6"]),
      1,
      "selectionDepth",
    );
  });
});
