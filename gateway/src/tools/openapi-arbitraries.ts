/**
 * Test support: fast-check arbitraries of OpenAPI documents, for the import-to-tools fuzz test.
 * Documents are 3.0 or 3.1, written as JSON or YAML, with varied paths, parameters, bodies,
 * responses and schemas: `$ref`s between component schemas (cycles included), odd and unicode
 * names, long and deep values within the import's limits. Hostile variants break them: a node
 * replaced by a value of the wrong type, broken and external `$ref`s, duplicated operationIds
 * (from the small pool of ids), unsupported versions, text cut short or not a document at all.
 */
import { type Json, mutatedAt } from "@atrium/control-plane/testing";
import fc from "fast-check";
import { stringify } from "yaml";

type JsonObject = { [key: string]: Json };

/** Component schema names: few, so `$ref`s often meet their target and cycles are common. */
const schemaNames = ["Pet", "Owner", "Node", "a.b-c_d"] as const;

/** Names of properties and parameters: plain, odd, unicode, prototype keys, JSON Schema keywords. */
const names = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("id", "name", "limit", "tags", "petId", "body", "x-trace", "filter") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "__proto__",
      "constructor",
      "$ref",
      "type",
      "a b",
      "a/b",
      "a~b",
      "名前",
      "emoji😀",
      "Content-Type",
      "Authorization",
      "accept",
      "-",
      "x".repeat(200),
    ),
  },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 12, unit: "grapheme" }) },
);

/** Human text: usually short, sometimes long, unicode and control characters included. */
const text = fc.oneof(
  { weight: 20, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 5, arbitrary: fc.string({ maxLength: 20, unit: "binary" }) },
  { weight: 1, arbitrary: fc.string({ minLength: 1000, maxLength: 5000, unit: "grapheme-ascii" }) },
);

const patterns = fc.constantFrom(
  "^[a-z]+$",
  "^\\d{3}-\\d{4}$",
  "\\p{L}+",
  "^(a|b)*$",
  "[",
  "(?<name>x)",
  "^\\w+@\\w+$",
);
const formats = fc.constantFrom("int32", "int64", "date", "date-time", "uuid", "email", "uri", "binary", "byte", "odd");

/** JSON Schemas of the document's dialect (3.0: `nullable`; 3.1: type arrays and `null`); `object` is always one. */
function schemaArbitraries(dialect: "3.0" | "3.1", maxDepth: number) {
  return fc.letrec<{ schema: Json; object: Json }>((tie) => ({
    schema: fc.oneof(
      { maxDepth, depthIdentifier: "schema", withCrossShrink: true },
      { weight: 4, arbitrary: leaf(dialect) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(...schemaNames).map((name) => ({ $ref: `#/components/schemas/${name}` })),
      },
      { weight: 2, arbitrary: tie("object") },
      {
        weight: 1,
        arbitrary: fc
          .record({ items: tie("schema"), minItems: fc.nat(3), uniqueItems: fc.boolean() }, { requiredKeys: ["items"] })
          .map((array) => ({ type: "array", ...array }) as Json),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom("allOf", "anyOf", "oneOf"), fc.array(tie("schema"), { minLength: 1, maxLength: 3 }))
          .map(([keyword, schemas]) => ({ [keyword]: schemas })),
      },
      { weight: 1, arbitrary: tie("schema").map((not) => ({ not })) },
    ),
    object: fc
      .record(
        {
          properties: fc.dictionary(names, tie("schema"), { maxKeys: 3 }),
          required: fc.uniqueArray(names, { maxLength: 3 }),
          additionalProperties: fc.oneof(fc.boolean(), tie("schema")),
          description: text,
        },
        { requiredKeys: ["properties"] },
      )
      .map((object) => ({ type: "object", ...object }) as Json),
  }));
}

function leaf(dialect: "3.0" | "3.1"): fc.Arbitrary<Json> {
  const types = fc.constantFrom("string", "integer", "number", "boolean", ...(dialect === "3.1" ? ["null"] : []));
  const dialectKeywords: Record<string, fc.Arbitrary<Json>> = dialect === "3.0"
    ? { nullable: fc.boolean() }
    : { const: fc.string({ maxLength: 4 }) };
  return fc
    .record(
      {
        type: dialect === "3.1" ? fc.oneof(types, fc.uniqueArray(types, { minLength: 1, maxLength: 3 })) : types,
        format: formats,
        enum: fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { minLength: 1, maxLength: 4 }),
        pattern: patterns,
        minLength: fc.nat(5),
        maxLength: fc.integer({ min: 5, max: 100 }),
        minimum: fc.integer(),
        default: fc.jsonValue({ maxDepth: 1 }),
        example: fc.jsonValue({ maxDepth: 1 }),
        description: text,
        ...dialectKeywords,
      },
      { requiredKeys: ["type"] },
    )
    .map((schema) => schema as Json);
}

/** `n` schemas nested in one another through `properties` (or `items`): deep, within the depth limit. */
const deepSchema = fc.tuple(fc.integer({ min: 1, max: 25 }), fc.boolean()).map(([n, arrays]) => {
  let schema: Json = { type: "string" };
  for (let level = 0; level < n; level++) {
    schema =
      arrays && level % 2
        ? { type: "array", items: schema }
        : { type: "object", properties: { [`l${level}`]: schema } };
  }
  return schema;
});

const segments = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("pets", "owners", "v1", "files", "ünï", "a.b", "x y", "%41", "~", "a:b") },
  { weight: 2, arbitrary: names.map((name) => ({ variable: name })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }).filter((segment) => !/[{}/]/.test(segment)) },
);
/** A path template and its variables (each once). */
const paths = fc.array(segments, { minLength: 1, maxLength: 4 }).map((parts) => {
  const variables = new Set<string>();
  const written = parts.map((part) => {
    if (typeof part === "string") return part;
    if (variables.has(part.variable)) return "again";
    variables.add(part.variable);
    return `{${part.variable}}`;
  });
  return { path: `/${written.join("/")}`, variables: [...variables] };
});

const methods = fc.constantFrom("get", "put", "post", "delete", "options", "head", "patch", "trace");
const mediaTypes = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "text/plain",
  "application/octet-stream",
  "application/vnd.api+json",
  "*/*",
);
/** Mostly absent (the import derives one) or random; sometimes from a small pool, so duplicates happen. */
const operationIds = fc.option(
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
    { weight: 1, arbitrary: fc.constantFrom("listPets", "getPet", "ünïcødé-öp", "a b/c", "x".repeat(300)) },
  ),
  { freq: 2 },
);

/** The styles OpenAPI allows in each location. */
const styles = {
  path: ["simple", "label", "matrix"],
  query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"],
  header: ["simple"],
  cookie: ["form"],
} as const;
type Location = keyof typeof styles;

function parameterArbitrary(schema: fc.Arbitrary<Json>, location: Location, name: fc.Arbitrary<string> = names) {
  return fc
    .record(
      {
        name,
        required: fc.boolean(),
        description: text,
        deprecated: fc.boolean(),
        schema,
        style: fc.constantFrom(...styles[location]),
        explode: fc.boolean(),
      },
      { requiredKeys: ["name", "schema"] },
    )
    .map((parameter) => ({ ...parameter, in: location, ...(location === "path" ? { required: true } : {}) }) as Json);
}

function contentArbitrary(schema: fc.Arbitrary<Json>) {
  return fc.dictionary(mediaTypes, fc.record({ schema }, { requiredKeys: [] }), { minKeys: 1, maxKeys: 2 });
}

function operationArbitrary(schema: fc.Arbitrary<Json>) {
  const parameter = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom<Location>("query", "header", "cookie").chain((at) => parameterArbitrary(schema, at)),
    },
    { weight: 1, arbitrary: fc.constant({ $ref: "#/components/parameters/Limit" }) },
  );
  return fc
    .record(
      {
        operationId: operationIds,
        summary: text,
        description: text,
        tags: fc.array(fc.string({ maxLength: 8 }), { maxLength: 2 }),
        deprecated: fc.boolean(),
        parameters: fc.uniqueArray(parameter, {
          maxLength: 3,
          selector: (p) =>
            (p as { $ref?: string }).$ref ?? `${(p as { in: string }).in}:${(p as { name: string }).name}`,
        }),
        requestBody: fc.record(
          { required: fc.boolean(), description: text, content: contentArbitrary(schema) },
          { requiredKeys: ["content"] },
        ),
        responses: fc.dictionary(
          fc.constantFrom("200", "201", "204", "2XX", "400", "404", "default"),
          fc.record({ description: text, content: contentArbitrary(schema) }, { requiredKeys: ["description"] }),
          { minKeys: 1, maxKeys: 3 },
        ),
        "x-mcp-annotations": fc.record({ readOnlyHint: fc.boolean(), title: text }, { requiredKeys: [] }),
      },
      { requiredKeys: ["responses"] },
    )
    .map(({ operationId, ...operation }) =>
      operationId === null ? (operation as Json) : ({ operationId, ...operation } as Json),
    );
}

/** A path item: its template's variables declared once for all its operations, then one to three operations. */
function pathItemArbitrary(schema: fc.Arbitrary<Json>) {
  return paths.chain(({ path, variables }) =>
    fc
      .tuple(
        fc.tuple(...variables.map((variable) => parameterArbitrary(schema, "path", fc.constant(variable)))),
        fc.dictionary(methods, operationArbitrary(schema), { minKeys: 1, maxKeys: 2 }),
      )
      .map(([parameters, operations]): [string, Json] => [
        path,
        { ...(parameters.length > 0 ? { parameters } : {}), ...operations },
      ]),
  );
}

/** A document that follows the specification, or nearly (a recursive schema, an odd name, a long text). */
export function validDocument(dialect: "3.0" | "3.1") {
  const { schema: anySchema, object } = schemaArbitraries(dialect, 3);
  const schema = fc.oneof({ weight: 8, arbitrary: anySchema }, { weight: 1, arbitrary: deepSchema });
  return fc
    .record({
      version: dialect === "3.0" ? fc.constantFrom("3.0.0", "3.0.3", "3.0.4") : fc.constantFrom("3.1.0", "3.1.1"),
      title: text,
      paths: fc.uniqueArray(pathItemArbitrary(schema), { minLength: 1, maxLength: 3, selector: ([path]) => path }),
      schemas: fc.record(
        Object.fromEntries(schemaNames.map((name) => [name, object])) as Record<string, fc.Arbitrary<Json>>,
      ),
      limit: parameterArbitrary(schema, "query", fc.constant("limit")),
      servers: fc.array(
        fc.constantFrom("https://api.example.com/v1", "/api", "http://127.0.0.1:1", "{scheme}://x", ""),
        { maxLength: 2 },
      ),
    })
    .map(
      ({ version, title, paths, schemas, limit, servers }): JsonObject => ({
        openapi: version,
        info: { title, version: "1.0.0" },
        ...(servers.length > 0 ? { servers: servers.map((url) => ({ url })) } : {}),
        paths: Object.fromEntries(paths),
        components: { schemas, parameters: { Limit: limit } },
      }),
    );
}

/** Values that break what they replace: wrong types, broken and external references, bad versions. */
const breakers: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(
    { $ref: "#/components/schemas/Missing" },
    { $ref: "#/paths" },
    { $ref: "#" },
    { $ref: "#/components/schemas/Pet/properties/x" },
    { $ref: "other.yaml#/Pet" },
    { $ref: "http://127.0.0.1:1/schema.json" },
    { $ref: "file:///etc/passwd" },
    { $ref: 42 },
    { $ref: "#/components/schemas/ünïcødé" },
    { $dynamicRef: "#meta" },
    "3.2.0",
    "2.0",
    3.1,
    [],
    {},
  ),
);

/** A valid document with one node replaced by a breaking value. */
function brokenDocument(dialect: "3.0" | "3.1") {
  return fc
    .tuple(validDocument(dialect), fc.nat(), breakers)
    .map(([document, pick, breaker]) => mutatedAt(document, pick, breaker) ?? null);
}

/** A document as text: JSON (compact or indented) or YAML (where shared nodes become aliases). */
function written(document: fc.Arbitrary<Json>) {
  return fc.tuple(document, fc.constantFrom("json", "json-indented", "yaml")).map(([value, format]) => {
    if (format === "yaml") return stringify(value, { aliasDuplicateObjects: true });
    return JSON.stringify(value, null, format === "json" ? undefined : 2);
  });
}

/** Texts that are not documents, or not whole ones. */
const garbage = fc.oneof(
  fc.string({ maxLength: 200, unit: "binary" }),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc
    .tuple(written(validDocument("3.1")), fc.nat())
    .map(([whole, cut]) => whole.slice(0, cut % Math.max(1, whole.length))),
  fc.constantFrom(
    "openapi: 3.1.0\npaths: &a\n  /x: *a\n",
    "a: &x [*x]",
    "\uFEFF{}",
    "---\n---\n",
    '{"openapi":"3.1.0"',
  ),
);

/** What the import fuzz test sends: valid documents most of the time, hostile ones the rest. */
export const documentTexts: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: written(validDocument("3.0")) },
  { weight: 3, arbitrary: written(validDocument("3.1")) },
  { weight: 2, arbitrary: written(brokenDocument("3.0")) },
  { weight: 2, arbitrary: written(brokenDocument("3.1")) },
  { weight: 1, arbitrary: garbage },
);
