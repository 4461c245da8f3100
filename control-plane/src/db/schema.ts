/**
 * The control plane's tables (drizzle). Every record belongs to an organization; every name is
 * unique within its organization. Nested settings validated by the `@atrium/crds` schemas are
 * stored as jsonb, so a new optional field needs no migration.
 */
import type { NormalizedOperation, PlanSettings } from "@atrium/contract";
import type { GatewayGroupSelector, promptsSpec, resourcesSpec, storedCustomToolsSpec } from "@atrium/crds";
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import type { z } from "zod";
import type { ImportedDocument } from "../openapi/imported-document.ts";

/**
 * A service artifact's spec: one of the three kinds' specs without its serviceRef (the row names
 * the Service); the `kind` column says which.
 */
export type ArtifactSpec = Partial<
  Omit<z.output<typeof storedCustomToolsSpec>, "serviceRef"> &
    Omit<z.output<typeof resourcesSpec>, "serviceRef"> &
    Omit<z.output<typeof promptsSpec>, "serviceRef">
>;

const id = () => uuid("id").primaryKey().default(sql`gen_random_uuid()`);
const organizationId = () =>
  uuid("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" });
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

export const organizations = pgTable("organizations", {
  id: id(),
  name: text("name").notNull().unique(),
  createdAt: createdAt(),
});

export const users = pgTable(
  "users",
  {
    id: id(),
    organizationId: organizationId(),
    username: text("username").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role").$type<"admin" | "member">().notNull().default("member"),
    /** Platform administrators (the bootstrapped admin) may create organizations. */
    platformAdmin: boolean("platform_admin").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [unique().on(t.organizationId, t.username)],
);

/** Bearer tokens returned by login; only their SHA-256 is stored. */
export const loginSessions = pgTable("login_sessions", {
  id: id(),
  userId: uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/** Long-lived organization tokens for gateways and the operator; only their SHA-256 is stored. */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: id(),
    organizationId: organizationId(),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    /** What the token may do (src/auth/access-rules.ts). */
    role: text("role").$type<"gateway" | "operator" | "admin">().notNull().default("gateway"),
    /** Gateway tokens: FQDN patterns a registration may advertise; null allows any. */
    allowedFqdns: jsonb("allowed_fqdns").$type<string[]>(),
    /** Gateway tokens: labels every registration must carry with these values; null requires none. */
    requiredLabels: jsonb("required_labels").$type<Record<string, string>>(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique().on(t.organizationId, t.name)],
);

export const services = pgTable(
  "services",
  {
    id: id(),
    organizationId: organizationId(),
    name: text("name").notNull(),
    version: text("version").notNull(),
    description: text("description"),
    /** What the import found: OpenAPI version, title, servers. */
    document: jsonb("document").$type<Omit<ImportedDocument, "operations">>().notNull(),
    /** Normalized operations; gateways compile tools from these and never parse OpenAPI. */
    operations: jsonb("operations").$type<NormalizedOperation[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique().on(t.organizationId, t.name, t.version)],
);

/** Backend secrets: values encrypted at rest (see src/secrets). */
export const secrets = pgTable(
  "secrets",
  {
    id: id(),
    organizationId: organizationId(),
    name: text("name").notNull(),
    encryptedValue: text("encrypted_value").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique().on(t.organizationId, t.name)],
);

export const configurationPlans = pgTable(
  "configuration_plans",
  {
    id: id(),
    organizationId: organizationId(),
    name: text("name").notNull(),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
    backendEndpoint: text("backend_endpoint").notNull(),
    /** SHA-256 of the current client API key; null when the plan has none. */
    apiKeyHash: text("api_key_hash"),
    /** The plan settings (PlanSettings): oauth, backendSecret, includedOperations, excludedOperations, headerPolicy, toolExposureMode, backendTimeoutMs, circuitBreaker, limits, audit. */
    settings: jsonb("settings").$type<PlanSettings>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique().on(t.organizationId, t.name)],
);

export const gatewayGroups = pgTable(
  "gateway_groups",
  {
    id: serial("id").primaryKey(),
    organizationId: organizationId(),
    name: text("name").notNull(),
    description: text("description"),
    labels: jsonb("labels").$type<Record<string, string>>().notNull().default({}),
    matchExpressions: jsonb("match_expressions")
      .$type<NonNullable<GatewayGroupSelector["matchExpressions"]>>()
      .notNull()
      .default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique().on(t.organizationId, t.name)],
);

export const expositions = pgTable(
  "expositions",
  {
    id: id(),
    organizationId: organizationId(),
    name: text("name").notNull(),
    configurationPlanId: uuid("configuration_plan_id")
      .notNull()
      .references(() => configurationPlans.id, { onDelete: "restrict" }),
    gatewayGroupId: integer("gateway_group_id")
      .notNull()
      .references(() => gatewayGroups.id, { onDelete: "restrict" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique().on(t.organizationId, t.name)],
);

/** CustomTools, Resources and Prompts: lists attached to a Service, told apart by `kind`. */
export const serviceArtifacts = pgTable(
  "service_artifacts",
  {
    id: id(),
    organizationId: organizationId(),
    kind: text("kind").$type<"CustomTools" | "Resources" | "Prompts">().notNull(),
    name: text("name").notNull(),
    serviceId: uuid("service_id")
      .notNull()
      .references(() => services.id, { onDelete: "restrict" }),
    spec: jsonb("spec").$type<ArtifactSpec>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique().on(t.organizationId, t.kind, t.name), index().on(t.serviceId)],
);

export const gateways = pgTable(
  "gateways",
  {
    organizationId: organizationId(),
    id: text("id").notNull(),
    /** Random per gateway process (kept in its cache file): tells a restart from a second gateway. */
    instanceId: text("instance_id").notNull(),
    fqdns: jsonb("fqdns").$type<string[]>().notNull(),
    labels: jsonb("labels").$type<Record<string, string>>().notNull(),
    version: text("version"),
    registeredAt: timestamp("registered_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

/**
 * Expositions a gateway received but could not serve (refused by the contract, failed to
 * compile, or a backend secret outside its environment allow-list), as it last reported them.
 * Forgotten with the gateway or the Exposition.
 */
export const gatewayProblems = pgTable(
  "gateway_problems",
  {
    organizationId: organizationId(),
    gatewayId: text("gateway_id").notNull(),
    expositionId: uuid("exposition_id")
      .notNull()
      .references(() => expositions.id, { onDelete: "cascade" }),
    message: text("message").notNull(),
    reportedAt: timestamp("reported_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.gatewayId, t.expositionId] }),
    foreignKey({
      columns: [t.organizationId, t.gatewayId],
      foreignColumns: [gateways.organizationId, gateways.id],
    }).onDelete("cascade"),
    index().on(t.expositionId),
  ],
);

/** The outbox: one row per change, its revision the stream's cursor. */
export const changes = pgTable(
  "changes",
  {
    revision: bigserial("revision", { mode: "number" }).primaryKey(),
    organizationId: organizationId(),
    kind: text("kind").notNull(),
    recordId: text("record_id").notNull(),
    deleted: boolean("deleted").notNull().default(false),
    /** Expositions whose compiled form this change may alter, computed when it is written. */
    expositionIds: jsonb("exposition_ids").$type<string[]>().notNull().default([]),
    /** The W3C traceparent of the write that made the change (tracing on), passed on in the stream. */
    traceparent: text("traceparent"),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.organizationId, t.revision)],
);

/**
 * 2025-era sessions a client ended on one gateway, by SHA-256 of their id: the change stream
 * tells every gateway serving the Exposition to refuse them until they expire.
 */
export const endedSessions = pgTable(
  "ended_sessions",
  {
    expositionId: uuid("exposition_id")
      .notNull()
      .references(() => expositions.id, { onDelete: "cascade" }),
    sessionHash: text("session_hash").notNull(),
    organizationId: organizationId(),
    /** The change that announced it: a stream resuming after a revision gets only newer ones. */
    revision: bigint("revision", { mode: "number" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.expositionId, t.sessionHash] }),
    index().on(t.organizationId, t.revision),
    index().on(t.expiresAt),
  ],
);

/**
 * Credentials users gave through elicitation (issue 15), per Exposition and user: only the
 * ciphertext a gateway sealed with its cluster key, which the control plane cannot open. The user
 * is the gateway's digest of their identity (`principal`); deleting the Exposition deletes them
 * (its plan cannot be deleted while the Exposition uses it).
 */
export const elicitedCredentials = pgTable(
  "elicited_credentials",
  {
    expositionId: uuid("exposition_id")
      .notNull()
      .references(() => expositions.id, { onDelete: "cascade" }),
    principal: text("principal").notNull(),
    organizationId: organizationId(),
    ciphertext: text("ciphertext").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.expositionId, t.principal] }),
    index().on(t.organizationId),
    // The per-minute write bound counts an Exposition's recently written rows.
    index().on(t.expositionId, t.updatedAt),
  ],
);

/**
 * Pending elicitations (issue 15): the record behind an elicitation page URL, under the SHA-256
 * of its id. Consumed once (`used_at` set by one conditional update); expired rows are removed
 * as new ones are written; deleted with the Exposition.
 */
export const elicitations = pgTable(
  "elicitations",
  {
    idHash: text("id_hash").primaryKey(),
    organizationId: organizationId(),
    expositionId: uuid("exposition_id")
      .notNull()
      .references(() => expositions.id, { onDelete: "cascade" }),
    principal: text("principal").notNull(),
    tool: text("tool").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.expositionId, t.expiresAt), index().on(t.expiresAt), index().on(t.organizationId)],
);
