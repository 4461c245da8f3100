/**
 * Configuration Plans: a Service bound to a backend with the endpoint's settings. The client
 * API key is generated here, returned once, stored as a hash; renewing it replaces it at once.
 */

import { type NormalizedOperation, type PlanSettings, storedPlanSettings } from "@atrium/contract";
import { listOf, planBody, planView, planWithKey, uuidParams } from "@atrium/contract/rest";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import { requireEnvReferenceWriter } from "../auth/access-rules.ts";
import { newSecretValue, sha256, TOKEN_PREFIX } from "../auth/tokens.ts";
import type { AppContext } from "../context.ts";
import { configurationPlans, secrets, services } from "../db/schema.ts";
import { errors, type FieldError } from "../errors.ts";
import { operationsAtDepth, SelectionDepthRefused } from "../graphql/plan-depth.ts";
import { recordChange, type Tx } from "../stream/changes.ts";
import { grpcPlanProblem } from "./grpc-plan.ts";
import { checkOutputFilters } from "./output-filters.ts";
import { found, timestampsOf } from "./records.ts";
import { unfitEndpoint } from "./service-kinds.ts";
import { toolOverrideProblems } from "./tool-overrides.ts";

type PlanRow = typeof configurationPlans.$inferSelect;
function view(row: PlanRow): z.output<typeof planView> {
  return {
    id: row.id,
    name: row.name,
    serviceId: row.serviceId,
    backendEndpoint: row.backendEndpoint,
    hasApiKey: row.apiKeyHash !== null,
    ...storedPlanSettings(row.settings),
    ...timestampsOf(row),
  };
}

/**
 * The checks that need the database: references and operation ids must exist in this
 * organization. Every rule about the plan alone is in its schema (@atrium/crds).
 */
async function checkReferences(tx: Tx, organizationId: string, body: z.output<typeof planBody>): Promise<void> {
  const problems: FieldError[] = [];
  const [service] = await tx
    .select({
      id: services.id,
      updatedAt: services.updatedAt,
      operations: services.operations,
      document: services.document,
    })
    .from(services)
    .where(and(eq(services.organizationId, organizationId), eq(services.id, body.serviceId)))
    // Shared: a re-import of the Service to a kind no gateway calls waits for this plan, and then sees it.
    .for("share");
  if (!service)
    problems.push({ field: "body.serviceId", message: `no service '${body.serviceId}' in this organization` });
  const kind = service?.document.kind ?? "openapi";
  const unfit =
    service &&
    unfitEndpoint(kind, body.backendEndpoint, "body.backendEndpoint", `Service '${body.serviceId}' is of kind ${kind}`);
  if (unfit) throw unfit;
  if (body.graphql && service) checkSelectionDepth(service, body);
  const grpcProblem = service && grpcPlanProblem(kind, body, body.serviceId);
  if (grpcProblem) throw grpcProblem;
  const known = new Set(((service?.operations ?? []) as { operationId: string }[]).map((op) => op.operationId));
  for (const field of ["includedOperations", "excludedOperations"] as const) {
    const unknown = (body[field] ?? []).filter((id) => service && !known.has(id));
    if (unknown.length > 0) {
      problems.push({
        field: `body.${field}`,
        message: `unknown operationId(s) ${unknown.join(", ")}: the service has ${[...known].join(", ")}`,
      });
    }
  }
  if (service)
    problems.push(...(await toolOverrideProblems(tx, organizationId, { ...service, id: body.serviceId }, body)));
  const secret = body.backendSecret;
  for (const [field, secretId] of [
    ["body.backendSecret.secretId", secret?.secretId],
    [
      "body.backendSecret.oauth2ClientCredentials.clientSecret.secretId",
      secret?.oauth2ClientCredentials?.clientSecret.secretId,
    ],
    ["body.backendSecret.tokenExchange.clientSecret.secretId", secret?.tokenExchange?.clientSecret.secretId],
    [
      "body.backendSecret.oauth2AuthorizationCode.clientSecret.secretId",
      secret?.oauth2AuthorizationCode?.clientSecret?.secretId,
    ],
    ["body.backendTls.clientCertificate.secretId", body.backendTls?.clientCertificate?.secretId],
    ["body.backendTls.clientKey.secretId", body.backendTls?.clientKey?.secretId],
  ] as const) {
    if (!secretId) continue;
    const [stored] = await tx
      .select({ id: secrets.id })
      .from(secrets)
      .where(and(eq(secrets.organizationId, organizationId), eq(secrets.id, secretId)));
    if (!stored) problems.push({ field, message: `no secret '${secretId}' in this organization` });
  }
  if (problems.length > 0)
    throw errors.unprocessable(
      "INVALID_REFERENCE",
      problems.map((p) => `${p.field}: ${p.message}`).join("; "),
      problems,
    );
}

/**
 * Only who may read the gateway's environment may name its variables, as the secret or as its
 * client secret, or its files, as the backend TLS's CA, client certificate or key.
 */
function requireEnvReferenceWriterFor(
  principal: Parameters<typeof requireEnvReferenceWriter>[0],
  body: Pick<PlanSettings, "backendSecret" | "backendTls">,
) {
  const secret = body.backendSecret;
  if (secret?.env) requireEnvReferenceWriter(principal, "body.backendSecret.env");
  if (secret?.oauth2ClientCredentials?.clientSecret.env)
    requireEnvReferenceWriter(principal, "body.backendSecret.oauth2ClientCredentials.clientSecret.env");
  if (secret?.tokenExchange?.clientSecret.env)
    requireEnvReferenceWriter(principal, "body.backendSecret.tokenExchange.clientSecret.env");
  if (secret?.oauth2AuthorizationCode?.clientSecret?.env)
    requireEnvReferenceWriter(principal, "body.backendSecret.oauth2AuthorizationCode.clientSecret.env");
  const tls = body.backendTls;
  for (const [field, file] of [
    ["body.backendTls.caFile", tls?.caFile],
    ["body.backendTls.clientCertificate.file", tls?.clientCertificate?.file],
    ["body.backendTls.clientKey.file", tls?.clientKey?.file],
  ] as const) {
    if (file) requireEnvReferenceWriter(principal, field, "Naming a file on the gateway");
  }
}

/**
 * `graphql` is a GraphQL Service's setting (fail closed: refused where nothing would apply it); its
 * selection depth must build tools within the fields budget, as the Exposition will be compiled.
 */
function checkSelectionDepth(
  service: Parameters<typeof operationsAtDepth>[0] & { operations: NormalizedOperation[] },
  body: z.output<typeof planBody>,
): void {
  const field = "body.graphql";
  const kind = service.document.kind ?? "openapi";
  if (kind !== "graphql") {
    const message = `Service '${service.id}' is of kind ${kind}: only a plan on a graphql Service takes graphql settings, remove them`;
    throw errors.unprocessable("GRAPHQL_SETTINGS_NOT_APPLICABLE", `${field}: ${message}`, [{ field, message }]);
  }
  const included = body.includedOperations ? new Set(body.includedOperations) : undefined;
  const excluded = new Set(body.excludedOperations ?? []);
  const chosen = service.operations.filter(
    (op) => (!included || included.has(op.operationId)) && !excluded.has(op.operationId),
  );
  try {
    operationsAtDepth(service, chosen, body.graphql?.selectionDepth);
  } catch (error) {
    if (!(error instanceof SelectionDepthRefused)) throw error;
    const depthField = `${field}.selectionDepth`;
    throw errors.unprocessable(error.code, `${depthField}: ${error.message}`, [
      { field: depthField, message: error.message },
    ]);
  }
}

/** A write's answer carries its warnings only when there are some. */
function warned(warnings: string[]): { warnings?: string[] } {
  return warnings.length > 0 ? { warnings } : {};
}

function settingsOf(body: z.output<typeof planBody>): PlanSettings {
  const { name: _name, serviceId: _serviceId, backendEndpoint: _endpoint, apiKey: _apiKey, ...settings } = body;
  return settings;
}

export const configurationPlanRoutes: FastifyPluginAsync<{ context: AppContext }> = async (base, { context }) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;
  const owned = (orgId: string, id: string) =>
    and(eq(configurationPlans.organizationId, orgId), eq(configurationPlans.id, id));

  app.post(
    "/configuration-plans",
    { schema: { body: planBody, response: { 201: planWithKey } } },
    async (request, reply) => {
      const organizationId = request.principal.organizationId;
      requireEnvReferenceWriterFor(request.principal, request.body);
      const apiKey = request.body.apiKey ? newSecretValue(TOKEN_PREFIX.apiKey) : undefined;
      let warnings: string[] = [];
      const row = await db.transaction(async (tx) => {
        await checkReferences(tx, organizationId, request.body);
        warnings = await checkOutputFilters(tx, organizationId, request.body);
        const [inserted] = await tx
          .insert(configurationPlans)
          .values({
            organizationId,
            name: request.body.name,
            serviceId: request.body.serviceId,
            backendEndpoint: request.body.backendEndpoint,
            apiKeyHash: apiKey ? sha256(apiKey) : null,
            settings: settingsOf(request.body),
          })
          .onConflictDoNothing()
          .returning();
        if (!inserted) throw errors.alreadyExists("Configuration plan", request.body.name);
        await recordChange(tx, organizationId, "ConfigurationPlan", inserted.id);
        return inserted;
      });
      return reply.status(201).send({ ...view(row), ...(apiKey ? { apiKey } : {}), ...warned(warnings) });
    },
  );

  app.get("/configuration-plans", { schema: { response: { 200: listOf(planView) } } }, async (request) => {
    const rows = await db
      .select()
      .from(configurationPlans)
      .where(eq(configurationPlans.organizationId, request.principal.organizationId))
      .orderBy(configurationPlans.createdAt);
    return { items: rows.map(view) };
  });

  app.get(
    "/configuration-plans/:id",
    { schema: { params: uuidParams, response: { 200: planView } } },
    async (request) => {
      const rows = await db
        .select()
        .from(configurationPlans)
        .where(owned(request.principal.organizationId, request.params.id));
      return view(found(rows, "Configuration plan", request.params.id));
    },
  );

  app.put(
    "/configuration-plans/:id",
    { schema: { params: uuidParams, body: planBody, response: { 200: planWithKey } } },
    async (request) => {
      const organizationId = request.principal.organizationId;
      const { id } = request.params;
      requireEnvReferenceWriterFor(request.principal, request.body);
      let apiKey: string | undefined;
      let warnings: string[] = [];
      const row = await db.transaction(async (tx) => {
        const current = found(
          await tx.select().from(configurationPlans).where(owned(organizationId, id)),
          "Configuration plan",
          id,
        );
        await checkReferences(tx, organizationId, request.body);
        warnings = await checkOutputFilters(tx, organizationId, request.body);
        if (request.body.apiKey && !current.apiKeyHash) apiKey = newSecretValue(TOKEN_PREFIX.apiKey);
        const apiKeyHash = request.body.apiKey ? (apiKey ? sha256(apiKey) : current.apiKeyHash) : null;
        const [updated] = await tx
          .update(configurationPlans)
          .set({
            name: request.body.name,
            serviceId: request.body.serviceId,
            backendEndpoint: request.body.backendEndpoint,
            apiKeyHash,
            settings: settingsOf(request.body),
            updatedAt: new Date(),
          })
          .where(owned(organizationId, id))
          .returning();
        await recordChange(tx, organizationId, "ConfigurationPlan", id);
        return found(updated ? [updated] : [], "Configuration plan", id);
      });
      return { ...view(row), ...(apiKey ? { apiKey } : {}), ...warned(warnings) };
    },
  );

  app.post(
    "/configuration-plans/:id/renew-api-key",
    { schema: { params: uuidParams, response: { 200: planWithKey } } },
    async (request) => {
      const organizationId = request.principal.organizationId;
      const { id } = request.params;
      const apiKey = newSecretValue(TOKEN_PREFIX.apiKey);
      const row = await db.transaction(async (tx) => {
        const current = found(
          await tx.select().from(configurationPlans).where(owned(organizationId, id)),
          "Configuration plan",
          id,
        );
        if (!current.apiKeyHash) {
          throw errors.conflict(
            `Configuration plan '${id}' has no API key to renew: update it with apiKey: true first`,
          );
        }
        // No overlap: the old key stops working as soon as gateways receive this change.
        const [updated] = await tx
          .update(configurationPlans)
          .set({ apiKeyHash: sha256(apiKey), updatedAt: new Date() })
          .where(owned(organizationId, id))
          .returning();
        await recordChange(tx, organizationId, "ConfigurationPlan", id);
        return found(updated ? [updated] : [], "Configuration plan", id);
      });
      return { ...view(row), apiKey };
    },
  );

  app.delete("/configuration-plans/:id", { schema: { params: uuidParams } }, async (request, reply) => {
    const organizationId = request.principal.organizationId;
    const { id } = request.params;
    await db.transaction(async (tx) => {
      found(
        await tx.select({ id: configurationPlans.id }).from(configurationPlans).where(owned(organizationId, id)),
        "Configuration plan",
        id,
      );
      await recordChange(tx, organizationId, "ConfigurationPlan", id, { deleted: true });
      await tx.delete(configurationPlans).where(owned(organizationId, id));
    });
    return reply.status(204).send();
  });
};
