/**
 * Services: OpenAPI 2.0 / 3.0 / 3.1 documents, GraphQL schemas or gRPC .proto files imported from
 * inline text, a URL (a grpc(s):// one read through server reflection), uploaded .proto files, or
 * an upload (POST /services/import with the document as the body), stored as normalized
 * operations. A GraphQL Service cannot become one that plans use (see configuration-plans.ts).
 */
import { listOf, serviceBody, serviceDetail, serviceImportQuery, serviceView, uuidParams } from "@atrium/contract/rest";
import type { openApiSource, ServiceKind } from "@atrium/crds";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../context.ts";
import { configurationPlans, services } from "../db/schema.ts";
import { errors } from "../errors.ts";
import { detectKind } from "../graphql/detect-kind.ts";
import { looksLikeProto } from "../grpc/detect-proto.ts";
import { type GrpcImportSource, importGrpcService } from "../grpc/run.ts";
import type { ControlPlaneMetrics } from "../metrics.ts";
import { OpenApiImportError, tooDeep } from "../openapi/errors.ts";
import { type FetchPolicy, fetchPolicyFromEnv } from "../openapi/fetch-document.ts";
import { importOpenApi } from "../openapi/import.ts";
import type { ImportedDocument } from "../openapi/imported-document.ts";
import { maxDocumentDepth } from "../openapi/limits.ts";
import { recordChange, type Tx } from "../stream/changes.ts";
import { found, timestampsOf } from "./records.ts";
import { unfitEndpoint } from "./service-kinds.ts";

type ServiceRow = typeof services.$inferSelect;
function view(row: ServiceRow): z.output<typeof serviceView> {
  const { document } = row;
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    ...(row.description ? { description: row.description } : {}),
    kind: document.kind ?? "openapi",
    title: document.title,
    ...(document.openapiVersion ? { openapiVersion: document.openapiVersion } : {}),
    servers: document.servers,
    operationCount: row.operations.length,
    importWarnings: document.warnings ?? [], // a Service imported before warnings existed has none stored
    ...timestampsOf(row),
  };
}

/** Imports, turning the importer's coded errors into 422 problems that keep its message and location. */
async function imported(
  kind: ServiceKind,
  source: GrpcImportSource,
  field: string,
  { fetchPolicy, metrics }: { fetchPolicy: FetchPolicy; metrics: ControlPlaneMetrics },
): Promise<ImportedDocument> {
  try {
    return await metrics.timeImport(() =>
      kind === "grpc" || "protoFiles" in source
        ? importGrpcService(source, { fetchPolicy })
        : importOpenApi(source, { fetchPolicy, kind }),
    );
  } catch (error) {
    if (error instanceof OpenApiImportError)
      throw errors.invalidOpenApi(error.code, error.message, field, error.location);
    throw error;
  }
}

/** An upload sent as JSON, back to text; one nested too deep to serialize is the import's nesting limit. */
function uploadedJsonText(body: unknown): string {
  try {
    return JSON.stringify(body ?? "");
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    const tooDeepError = tooDeep(maxDocumentDepth, undefined);
    throw errors.invalidOpenApi(tooDeepError.code, tooDeepError.message, "body", undefined);
  }
}

function sourceOf(openapi: z.output<typeof openApiSource>): [GrpcImportSource, string] {
  if (openapi.inline !== undefined) return [{ text: openapi.inline }, "body.openapi.inline"];
  if (openapi.url !== undefined) return [{ url: openapi.url }, "body.openapi.url"];
  if (openapi.protoFiles !== undefined) return [{ protoFiles: openapi.protoFiles }, "body.openapi.protoFiles"];
  throw errors.invalidField(
    "body.openapi.configMapRef",
    "a ConfigMap is read by the operator: send the document inline",
  );
}

export const serviceRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;
  const owned = (orgId: string, id: string) => and(eq(services.organizationId, orgId), eq(services.id, id));
  // Read at start-up: an ATRIUM_IMPORT_ALLOW_HOSTS entry that cannot be read stops the start.
  const importing = { fetchPolicy: fetchPolicyFromEnv(), metrics: context.metrics };

  // Uploads: the document itself is the body, in whatever type it was saved as.
  for (const type of [
    "application/yaml",
    "application/x-yaml",
    "text/yaml",
    "text/plain",
    "application/octet-stream",
  ]) {
    app.addContentTypeParser(type, { parseAs: "string" }, (_request, body, done) => done(null, body));
  }

  async function save(
    organizationId: string,
    fields: { name: string; version: string; description?: string | undefined },
    document: ImportedDocument,
    id?: string,
  ) {
    const { operations, ...rest } = document;
    return db.transaction(async (tx) => {
      const values = {
        name: fields.name,
        version: fields.version,
        description: fields.description ?? null,
        document: rest,
        operations,
      };
      const [row] = id
        ? await tx
            .update(services)
            .set({ ...values, updatedAt: new Date() })
            .where(owned(organizationId, id))
            .returning()
        : await tx
            .insert(services)
            .values({ organizationId, ...values })
            .onConflictDoNothing()
            .returning();
      if (!row)
        throw id ? errors.notFound("Service", id) : errors.alreadyExists("Service", `${fields.name}@${fields.version}`);
      // After the update, which holds the row a plan being created reads FOR SHARE: either sees the other.
      if (id) await refuseUnfitPlans(tx, organizationId, id, document.kind ?? "openapi");
      await recordChange(tx, organizationId, "Service", row.id);
      return row;
    });
  }

  /** A Service that plans use stays callable by the gateways: a kind they call, at each plan's endpoint. */
  async function refuseUnfitPlans(tx: Tx, organizationId: string, id: string, kind: ServiceKind): Promise<void> {
    const plans = await tx
      .select({ name: configurationPlans.name, backendEndpoint: configurationPlans.backendEndpoint })
      .from(configurationPlans)
      .where(and(eq(configurationPlans.organizationId, organizationId), eq(configurationPlans.serviceId, id)));
    for (const plan of plans) {
      const reason = `ConfigurationPlan '${plan.name}' uses this Service`;
      const unfit = unfitEndpoint(kind, plan.backendEndpoint, "body.kind", reason);
      if (unfit) throw unfit;
    }
  }

  app.post("/services", { schema: { body: serviceBody, response: { 201: serviceView } } }, async (request, reply) => {
    const document = await imported(request.body.kind, ...sourceOf(request.body.openapi), importing);
    return reply.status(201).send(view(await save(request.principal.organizationId, request.body, document)));
  });

  app.post(
    "/services/import",
    { schema: { querystring: serviceImportQuery, body: z.unknown(), response: { 201: serviceView } } },
    async (request, reply) => {
      const text = typeof request.body === "string" ? request.body : uploadedJsonText(request.body);
      if (!text.trim())
        throw errors.invalidField(
          "body",
          "send the OpenAPI document (JSON or YAML), the GraphQL schema (SDL or introspection JSON) or a .proto file as the request body",
        );
      const kind = request.query.kind ?? (looksLikeProto(text) ? "grpc" : detectKind(text));
      const document = await imported(kind, { text }, "body", importing);
      return reply.status(201).send(view(await save(request.principal.organizationId, request.query, document)));
    },
  );

  app.put(
    "/services/:id",
    { schema: { params: uuidParams, body: serviceBody, response: { 200: serviceView } } },
    async (request) => {
      const organizationId = request.principal.organizationId;
      found(
        await db.select({ id: services.id }).from(services).where(owned(organizationId, request.params.id)),
        "Service",
        request.params.id,
      );
      const document = await imported(request.body.kind, ...sourceOf(request.body.openapi), importing);
      return view(await save(organizationId, request.body, document, request.params.id));
    },
  );

  app.get("/services", { schema: { response: { 200: listOf(serviceView) } } }, async (request) => {
    const rows = await db
      .select()
      .from(services)
      .where(eq(services.organizationId, request.principal.organizationId))
      .orderBy(services.createdAt);
    return { items: rows.map(view) };
  });

  app.get("/services/:id", { schema: { params: uuidParams, response: { 200: serviceDetail } } }, async (request) => {
    const row = found(
      await db.select().from(services).where(owned(request.principal.organizationId, request.params.id)),
      "Service",
      request.params.id,
    );
    const operations = row.operations.map(({ operationId, method, path, summary }) => ({
      operationId,
      method,
      path,
      ...(summary ? { summary } : {}),
    }));
    return { ...view(row), operations };
  });

  app.delete("/services/:id", { schema: { params: uuidParams } }, async (request, reply) => {
    const organizationId = request.principal.organizationId;
    const { id } = request.params;
    await db.transaction(async (tx) => {
      found(await tx.select({ id: services.id }).from(services).where(owned(organizationId, id)), "Service", id);
      await recordChange(tx, organizationId, "Service", id, { deleted: true });
      await tx.delete(services).where(owned(organizationId, id));
    });
    return reply.status(204).send();
  });
};
