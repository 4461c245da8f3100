/**
 * `atrium service` against a real control plane: imports from a file and a URL, list, get,
 * delete, and what each refusal says.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { FIXTURE_OPENAPI } from "@atrium/gateway/testing";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { fails, json, ok, row, withCliStack } from "../testing.ts";
import { collectProtoFiles } from "./proto-files.ts";

let env: NodeJS.ProcessEnv;
let documentUrl: string;
const atrium = withCliStack((cli) => ({ env, documentUrl } = cli));

describe("service", () => {
  it("imports a YAML file, a JSON file and a URL; lists, shows and deletes", async () => {
    const dir = env.ATRIUM_CONFIG_DIR as string;
    const yamlFile = join(dir, "pets.yaml");
    writeFileSync(yamlFile, stringify(JSON.parse(FIXTURE_OPENAPI)));
    const jsonFile = join(dir, "pets.json");
    writeFileSync(jsonFile, FIXTURE_OPENAPI);

    const fromYaml = ok(await atrium(["service", "import", yamlFile, "--name", "pets-yaml", "--version", "1"]));
    expect(row(fromYaml, "ID")).toMatch(/^[0-9a-f-]{36}$/);
    expect(row(fromYaml, "OPERATION COUNT")).toBe("7");
    expect(row(fromYaml, "TITLE")).toBe("Fixture pets");

    const fromJson = json(
      await atrium([
        "service",
        "import",
        jsonFile,
        "--name",
        "pets-json",
        "--version",
        "2",
        "--description",
        "uploaded",
        "--output",
        "json",
      ]),
    );
    expect(fromJson).toMatchObject({ name: "pets-json", version: "2", description: "uploaded", operationCount: 7 });

    const fromUrl = json(
      await atrium(["service", "import", documentUrl, "--name", "pets-url", "--version", "3", "-o", "json"]),
    );
    expect(fromUrl).toMatchObject({ name: "pets-url", operationCount: 7 });

    const table = ok(await atrium(["service", "list"]));
    expect(table.stdout).toMatch(/^ID\s+NAME\s+VERSION\s+KIND\s+TITLE\s+OPERATIONS\s+CREATED$/m);
    expect(table.stdout).toContain(fromJson.id);
    const listed = json(await atrium(["service", "list", "-o", "json"]));
    expect(listed.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(["fixture", "pets-yaml", "pets-json", "pets-url"]),
    );

    const shown = ok(await atrium(["service", "get", fromJson.id]));
    expect(row(shown, "NAME")).toBe("pets-json");
    expect(shown.stdout).toMatch(/^getPet\s+GET\s+\/pets\/\{petId\}\s+Get a pet$/m);
    const detail = json(await atrium(["service", "get", fromJson.id, "-o", "json"]));
    expect(detail.operations).toHaveLength(7);

    expect(ok(await atrium(["service", "delete", fromUrl.id])).stdout).toBe(`Deleted service ${fromUrl.id}.\n`);
    expect(json(await atrium(["service", "delete", fromJson.id, "-o", "json"]))).toEqual({
      id: fromJson.id,
      deleted: true,
    });
  });

  it("imports a .graphql file as a GraphQL Service, and refuses an unknown kind", async () => {
    const dir = env.ATRIUM_CONFIG_DIR as string;
    const sdl = 'type Query {\n  "A product."\n  product(id: ID!): Product\n}\ntype Product { id: ID! name: String }\n';
    const file = join(dir, "store.gql");
    writeFileSync(file, sdl);
    const created = json(await atrium(["service", "import", file, "--name", "store", "--version", "1", "-o", "json"]));
    expect(created).toMatchObject({ kind: "graphql", operationCount: 1 });
    const shown = ok(await atrium(["service", "get", created.id]));
    expect(row(shown, "KIND")).toBe("graphql");
    expect(shown.stdout).toMatch(/^product\s+POST\s+\/\s+A product\.$/m);

    // A URL path ending in .graphql is imported as graphql: the test server's OpenAPI JSON is then no schema.
    const fromUrl = ["service", "import", `${documentUrl}.graphql`, "--name", "from-url", "--version", "1"];
    fails(await atrium(fromUrl), 1, "it is not a valid GraphQL schema");

    const named = join(dir, "store.txt");
    writeFileSync(named, "type Query {\n  a: [Int\n}\n");
    const flagged = ["service", "import", named, "--name", "broken", "--version", "1", "--kind", "graphql"];
    fails(await atrium(flagged), 1, /line 3, column 1/);
    fails(
      await atrium([...flagged.slice(0, -1), "soap"]),
      2,
      '"soap" is not a kind of Service: openapi, graphql or grpc',
    );
  });

  it("imports .proto files as a gRPC Service, uploading the imports found under --proto-path", async () => {
    const root = join(env.ATRIUM_CONFIG_DIR as string, "protos");
    mkdirSync(join(root, "shop/v1"), { recursive: true });
    writeFileSync(
      join(root, "shop/v1/shop.proto"),
      [
        'syntax = "proto3";',
        "package shop.v1;",
        'import "shop/v1/item.proto"; // found under --proto-path',
        'import "google/protobuf/empty.proto";',
        "service Shop {",
        "  // Finds an item.",
        "  rpc FindItem(Item) returns (Item);",
        "  rpc Stock(stream Item) returns (google.protobuf.Empty);",
        "}",
      ].join("\n"),
    );
    writeFileSync(
      join(root, "shop/v1/item.proto"),
      'syntax = "proto3";\npackage shop.v1;\nmessage Item {\n  int64 id = 1;\n}\n',
    );
    const entry = join(root, "shop/v1/shop.proto");
    const answer = await atrium([
      "service",
      "import",
      entry,
      "--proto-path",
      root,
      "--name",
      "shop",
      "--version",
      "1",
      "-o",
      "json",
    ]);
    const created = json(answer);
    expect(created).toMatchObject({ kind: "grpc", title: "shop.v1.Shop", operationCount: 1 });
    expect(answer.stderr).toContain("shop.v1.Shop/Stock is client-streaming");
    const shown = ok(await atrium(["service", "get", created.id]));
    expect(row(shown, "KIND")).toBe("grpc");
    expect(shown.stdout).toMatch(/^Shop_FindItem\s+POST\s+\/shop\.v1\.Shop\/FindItem\s+Finds an item\.$/m);

    // Without the import root, the import is not found: the CLI says which directory to add.
    const lost = ["service", "import", entry, "--proto-path", join(root, "shop"), "--name", "lost", "--version", "1"];
    fails(await atrium(lost), 2, /imports "shop\/v1\/item\.proto", which is in none of the import roots/);
    const two = ["service", "import", entry, entry, "--kind", "openapi", "--name", "two", "--version", "1"];
    fails(await atrium(two), 2, "several files make one Service only for kind grpc");
  });

  it("imports Google's real Pub/Sub API from google-proto-files, with its imports", async () => {
    const protos = dirname(createRequire(import.meta.url).resolve("google-proto-files/package.json"));
    const entry = join(protos, "google/pubsub/v1/pubsub.proto");
    const started = performance.now();
    const answer = await atrium([
      "service",
      "import",
      entry,
      "--proto-path",
      protos,
      "--name",
      "pubsub",
      "--version",
      "1",
      "-o",
      "json",
    ]);
    const created = json(answer);
    const seconds = (performance.now() - started) / 1000;
    // docs/services.md reports these numbers: 8 files uploaded (the google/api ones it imports
    // found under --proto-path, the well-known types left to the control plane), 3 services.
    const uploaded = collectProtoFiles([entry], [protos]).map((file) => file.path);
    expect(uploaded).toHaveLength(8);
    expect(uploaded).toContain("google/api/http.proto");
    expect(created).toMatchObject({
      kind: "grpc",
      title:
        "3 gRPC services (google.pubsub.v1.SchemaService, google.pubsub.v1.Publisher, google.pubsub.v1.Subscriber)",
      operationCount: 34,
    });
    expect(created.importWarnings.map((warning: { message: string }) => warning.message)).toEqual([
      "google.pubsub.v1.Subscriber/StreamingPull is bidirectional streaming: a tool call sends one request and reads one answer, so it is not exposed",
    ]);
    expect(seconds).toBeLessThan(30);
  });

  it("shows each pattern the import rewrote as a warning", async () => {
    const file = join(env.ATRIUM_CONFIG_DIR as string, "patterns.yaml");
    const parameter = { name: "q", in: "query", schema: { type: "string", pattern: "^a\\_b$" } };
    const get = { operationId: "a", parameters: [parameter], responses: { "200": { description: "ok" } } };
    writeFileSync(file, stringify({ openapi: "3.0.3", info: { title: "p", version: "1" }, paths: { "/a": { get } } }));
    const answer = await atrium(["service", "import", file, "--name", "patterns", "--version", "1"]);
    ok(answer);
    expect(answer.stderr).toContain('warning: pattern "^a\\\\_b$" at /paths/~1a/get/parameters/0/schema/pattern');
    expect(answer.stderr).toContain('is written "^a_b$"');
  });

  it("explains a bad document, a missing file, a missing flag and an unknown id", async () => {
    const bad = join(env.ATRIUM_CONFIG_DIR as string, "bad.yaml");
    writeFileSync(bad, "openapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\n");
    fails(await atrium(["service", "import", bad, "--name", "bad", "--version", "1"]), 1, /^error: .*operation/m);

    fails(
      await atrium(["service", "import", "/nowhere/pets.yaml", "--name", "x", "--version", "1"]),
      1,
      "Cannot read /nowhere/pets.yaml: no such file",
    );

    fails(
      await atrium(["service", "import", bad, "--name", "x"]),
      2,
      "required option '--version <version>' not specified",
    );

    const id = randomUUID();
    fails(await atrium(["service", "get", id]), 1, `Service '${id}' does not exist in this organization`);
    expect((await atrium(["service", "delete", id])).stderr).toContain(`Service '${id}' does not exist`);

    fails(await atrium(["service", "get", "not-an-id"]), 1, "params.id: must be a record id (a UUID)");

    fails(await atrium(["service", "import", bad, "--name", "Not_Valid", "--version", "1"]), 1, "querystring.name");
  });
});
