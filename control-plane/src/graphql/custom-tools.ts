/**
 * CustomTools as stored: each tool checked against its Service's kind, and a tool's own GraphQL
 * document resolved (custom-document.ts) into the call recipe and schemas the gateways run. An
 * HTTP request template needs an openapi Service (a graphql Service is called with GraphQL, a
 * grpc one through its methods); a GraphQL document needs a graphql Service. Refusals are 422s
 * located at the tool's field, and nothing is stored.
 */
import { buildSchema, type GraphQLSchema } from "graphql";
import { errors } from "../errors.ts";
import type { ImportedDocument } from "../openapi/imported-document.ts";
import type { JsonObject } from "../openapi/plain-json.ts";
import { type GraphqlDocumentInput, GraphqlDocumentRefused, resolveGraphqlDocument } from "./custom-document.ts";

type Service = { id: string; updatedAt: Date; document: Omit<ImportedDocument, "operations"> };
type Tool = { name: string; inputSchema?: JsonObject; request?: unknown; graphql?: GraphqlDocumentInput };

/** Built schemas per Service version: a write of several tools, or of many CustomTools, parses the SDL once. */
const schemas = new Map<string, GraphQLSchema>();
const maxCached = 8;

export function customToolsAsStored(spec: Record<string, unknown>, service: Service): Record<string, unknown> {
  const tools = (spec.tools ?? []) as Tool[];
  const kind = service.document.kind ?? "openapi";
  return {
    ...spec,
    tools: tools.map((tool, index) => {
      const at = `body.tools.${index}`;
      if (tool.request !== undefined && kind !== "openapi")
        throw refused(
          `${at}.request`,
          kind === "graphql"
            ? `tool ${tool.name}: Service '${service.id}' is a graphql Service, called with GraphQL documents: give graphql: {document} instead of an HTTP request template`
            : `tool ${tool.name}: Service '${service.id}' is a ${kind} Service, which the gateways call only through its methods: an HTTP request template needs an openapi Service`,
        );
      if (!tool.graphql) return tool;
      if (kind !== "graphql")
        throw refused(
          `${at}.graphql`,
          `tool ${tool.name}: a GraphQL document needs a graphql Service; Service '${service.id}' is ${kind}: use an HTTP request template (request)`,
        );
      const resolved = resolve(schemaOf(service, `${at}.graphql`), tool.graphql, `${at}.graphql`, tool.name);
      const { inputSchema, ...call } = resolved;
      return { ...tool, inputSchema: tool.inputSchema ?? inputSchema, graphql: call };
    }),
  };
}

function resolve(schema: GraphQLSchema, input: GraphqlDocumentInput, at: string, name: string) {
  try {
    return resolveGraphqlDocument(schema, input);
  } catch (error) {
    if (!(error instanceof GraphqlDocumentRefused)) throw error;
    throw refused(`${at}.${error.field}`, `tool ${name}: ${error.message}`);
  }
}

function schemaOf(service: Service, at: string): GraphQLSchema {
  const key = `${service.id}@${service.updatedAt.getTime()}`;
  const cached = schemas.get(key);
  if (cached) return cached;
  const sdl = service.document.graphqlSchema;
  if (sdl === undefined)
    throw refused(
      at,
      `Service '${service.id}' was imported before custom GraphQL tools existed: import its schema again to add one`,
    );
  // The import validated it; stored as printSchema wrote it.
  const schema = buildSchema(sdl, { assumeValidSDL: true });
  if (schemas.size >= maxCached) schemas.delete(schemas.keys().next().value as string);
  schemas.set(key, schema);
  return schema;
}

function refused(field: string, message: string) {
  return errors.unprocessable("CUSTOM_TOOL_INVALID", message, [{ field, message }]);
}
