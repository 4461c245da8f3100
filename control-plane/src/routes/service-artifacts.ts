/**
 * CustomTools, Resources and Prompts: lists attached to a Service and served by every
 * Exposition of it. One route module serves the three kinds; their bodies are the CRD specs
 * with the Service named by id. CustomTools are checked against their Service's kind, and a
 * tool's own GraphQL document is resolved, before they are stored (graphql/custom-tools.ts).
 */
import { artifactRecords, listOf, uuidParams } from "@atrium/contract/rest";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../context.ts";
import { serviceArtifacts, services } from "../db/schema.ts";
import { errors } from "../errors.ts";
import { customToolsAsStored } from "../graphql/custom-tools.ts";
import { recordChange } from "../stream/changes.ts";
import { found, timestampsOf } from "./records.ts";

export const serviceArtifactRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;

  for (const { kind, path, body, view } of artifactRecords) {
    type Row = typeof serviceArtifacts.$inferSelect;
    const toView = (row: Row) => ({
      id: row.id,
      name: row.name,
      serviceId: row.serviceId,
      ...(row.spec as Record<string, unknown>),
      ...timestampsOf(row),
    });
    const owned = (orgId: string, id: string) =>
      and(eq(serviceArtifacts.organizationId, orgId), eq(serviceArtifacts.kind, kind), eq(serviceArtifacts.id, id));

    /** The named Service's kind and schema, and the spec as stored for it (CustomTools' are resolved against it). */
    const checkService = async (organizationId: string, serviceId: string, spec: Record<string, unknown>) => {
      const [service] = await db
        .select({ id: services.id, updatedAt: services.updatedAt, document: services.document })
        .from(services)
        .where(and(eq(services.organizationId, organizationId), eq(services.id, serviceId)));
      if (!service) {
        throw errors.unprocessable(
          "INVALID_REFERENCE",
          `body.serviceId: no service '${serviceId}' in this organization`,
          [{ field: "body.serviceId", message: `no service '${serviceId}' in this organization` }],
        );
      }
      return kind === "CustomTools" ? customToolsAsStored(spec, service) : spec;
    };
    /** The body as stored: the schema has checked it, the columns take name and service apart. */
    const partsOf = (value: unknown) => {
      const { name, serviceId, ...spec } = value as { name: string; serviceId: string };
      return { name, serviceId, spec };
    };

    app.post(path, { schema: { body, response: { 201: view } } }, async (request, reply) => {
      const organizationId = request.principal.organizationId;
      const parts = partsOf(request.body);
      parts.spec = await checkService(organizationId, parts.serviceId, parts.spec);
      const row = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(serviceArtifacts)
          .values({ organizationId, kind, ...parts })
          .onConflictDoNothing()
          .returning();
        if (!inserted) throw errors.alreadyExists(kind, parts.name);
        await recordChange(tx, organizationId, kind, inserted.id);
        return inserted;
      });
      return reply.status(201).send(toView(row));
    });

    app.get(path, { schema: { response: { 200: listOf(view) } } }, async (request) => {
      const rows = await db
        .select()
        .from(serviceArtifacts)
        .where(
          and(eq(serviceArtifacts.organizationId, request.principal.organizationId), eq(serviceArtifacts.kind, kind)),
        )
        .orderBy(serviceArtifacts.createdAt);
      return { items: rows.map(toView) };
    });

    app.get(`${path}/:id`, { schema: { params: uuidParams, response: { 200: view } } }, async (request) => {
      const rows = await db
        .select()
        .from(serviceArtifacts)
        .where(owned(request.principal.organizationId, request.params.id));
      return toView(found(rows, kind, request.params.id));
    });

    app.put(`${path}/:id`, { schema: { params: uuidParams, body, response: { 200: view } } }, async (request) => {
      const organizationId = request.principal.organizationId;
      const parts = partsOf(request.body);
      parts.spec = await checkService(organizationId, parts.serviceId, parts.spec);
      const row = await db.transaction(async (tx) => {
        // Recorded before and after: Expositions of the old and of the new Service both change.
        await recordChange(tx, organizationId, kind, request.params.id);
        const rows = await tx
          .update(serviceArtifacts)
          .set({ ...parts, updatedAt: new Date() })
          .where(owned(organizationId, request.params.id))
          .returning();
        const updated = found(rows, kind, request.params.id);
        await recordChange(tx, organizationId, kind, updated.id);
        return updated;
      });
      return toView(row);
    });

    app.delete(`${path}/:id`, { schema: { params: uuidParams } }, async (request, reply) => {
      const organizationId = request.principal.organizationId;
      const { id } = request.params;
      await db.transaction(async (tx) => {
        found(
          await tx.select({ id: serviceArtifacts.id }).from(serviceArtifacts).where(owned(organizationId, id)),
          kind,
          id,
        );
        await recordChange(tx, organizationId, kind, id, { deleted: true });
        await tx.delete(serviceArtifacts).where(owned(organizationId, id));
      });
      return reply.status(204).send();
    });
  }
};
