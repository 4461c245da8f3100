/**
 * Values of charts/control-plane: the control plane (`ctrl.*`), its database, its encryption keys
 * (`encryptionKey.*`, the spec's Helm structure), the first admin, the web UI it serves (`webUi.*`),
 * Ingress, PodDisruptionBudget and ServiceMonitor.
 */
import { webOrigin } from "@atrium/contract/origins";
import { z } from "zod";
import {
  chartBasics,
  extraEnv,
  extraVolumes,
  grafanaDashboard,
  image,
  ingress,
  logLevel,
  podDisruptionBudget,
  podPlacement,
  prometheusRule,
  resources,
  serviceMonitor,
} from "./common.ts";

const ctrl = z
  .strictObject({
    image: image("atrium/control-plane"),
    replicas: z
      .int()
      .min(1)
      .default(1)
      .describe("Control-plane replicas. More than one needs externalDatabase (they share one PostgreSQL)."),
    // Measured RSS: about 700 MB with the embedded database (PGlite), about 300 MB with PostgreSQL.
    resources: resources({ requests: { cpu: "100m", memory: "384Mi" }, limits: { memory: "1Gi" } }),
    logLevel,
    importAllowHosts: z
      .array(z.string().min(1))
      .default([])
      .describe(
        "Hosts an OpenAPI URL import may reach although the SSRF policy refuses them (ATRIUM_IMPORT_ALLOW_HOSTS): host names, addresses, CIDR blocks, each with an optional :port.",
      ),
    extraEnv: extraEnv("Extra environment variables of the control plane (Kubernetes env entries; valueFrom works)."),
    ...extraVolumes(),
    service: z
      .strictObject({
        type: z.enum(["ClusterIP", "NodePort", "LoadBalancer"]).default("ClusterIP").describe("Service type."),
        port: z.int().min(1).max(65535).default(5555).describe("Service port of the REST API."),
        managementPort: z.int().min(1).max(65535).default(9090).describe("Service port of /q/metrics."),
      })
      .prefault({})
      .describe("The control plane's Service."),
    ...podPlacement(),
  })
  .prefault({})
  .describe("The control plane.");

const persistence = z
  .strictObject({
    enabled: z
      .boolean()
      .default(false)
      .describe(
        "Keep the embedded database on a PersistentVolumeClaim. Off: an emptyDir, lost with the pod (tries and tests only).",
      ),
    size: z.string().default("1Gi").describe("Size of the claim."),
    storageClass: z.string().default("").describe("StorageClass of the claim; empty for the cluster's default."),
  })
  .prefault({})
  .describe("The embedded database (PGlite), used when externalDatabase.host is empty: one replica only.");

const externalDatabase = z
  .strictObject({
    host: z.string().default("").describe("PostgreSQL host. Empty: the embedded database (see persistence)."),
    port: z.int().min(1).max(65535).default(5432).describe("PostgreSQL port."),
    database: z.string().min(1).default("atrium").describe("Database name."),
    user: z.string().min(1).default("atrium").describe("Database user."),
    password: z
      .string()
      .default("")
      .describe("Database password, stored in a Secret of the chart. Prefer existingSecret."),
    existingSecret: z.string().default("").describe("Secret holding the database password (instead of password)."),
    existingSecretPasswordKey: z.string().min(1).default("password").describe("Key of the password in existingSecret."),
    sslMode: z
      .enum(["", "disable", "prefer", "require", "verify-ca", "verify-full"])
      .default("")
      .describe("sslmode of the connection; empty leaves the driver's default."),
  })
  .prefault({})
  .describe("An external PostgreSQL (ATRIUM_DATABASE_URL); the password goes in as PGPASSWORD, never in the URL.");

const encryptionKey = z
  .strictObject({
    existingSecret: z
      .string()
      .default("")
      .describe(
        "Secret holding the keys. Empty: the chart generates one on install (a random key per id in keys), keeps it across upgrades and uninstall (helm.sh/resource-policy: keep), and adds entries for new ids; back it up, and know that a helm rollback to before a key was added drops that key. In production, prefer your own Secret.",
      ),
    activeKeyId: z
      .string()
      .default("v1")
      .describe("Id of the key new values are written with (ATRIUM_ENCRYPTION_ACTIVE_KEY_ID)."),
    keys: z
      .record(
        z.string().min(1),
        z.strictObject({
          key: z.string().min(1).describe("Entry of the Secret holding this key: base64 of 32 random bytes."),
        }),
      )
      .default({ v1: { key: "encryption-key-v1" } })
      .describe(
        "The AES-256-GCM key set (ATRIUM_ENCRYPTION_KEYS): key id → Secret entry. Keep old ids while any backup or replica may hold values written with them.",
      ),
    key: z
      .string()
      .default("")
      .describe(
        "Entry of existingSecret holding the legacy AES/ECB key (ATRIUM_ENCRYPTION_LEGACY_KEY), read only to migrate old values; the sample names it encryption-key.",
      ),
  })
  .prefault({})
  .describe(
    "Encryption of stored secret values. Rotation: add a key, upgrade; then switch activeKeyId, upgrade; then re-encrypt.",
  );

const admin = z
  .strictObject({
    organization: z.string().min(1).default("default").describe("Organization of the first admin."),
    username: z.string().min(1).default("admin").describe("User name of the first admin."),
    existingSecret: z
      .string()
      .default("")
      .describe(
        "Secret holding the first admin's password. Empty: the chart generates one on install and keeps it (see NOTES).",
      ),
    passwordKey: z.string().min(1).default("password").describe("Key of the password in the Secret."),
  })
  .prefault({})
  .describe("The admin created on the control plane's first start (the bootstrap Secret).");

const webUi = z
  .strictObject({
    enabled: z
      .boolean()
      .default(false)
      .describe(
        "Serve the web UI at / beside /api/v1, on the control plane's Service and Ingress (ATRIUM_UI_DIR: the bundle the control-plane image carries at /app/ui/dist). An Ingress must then route / (its default path), not only /api and /q.",
      ),
    gatewayOrigins: z
      .array(webOrigin)
      .max(32)
      .default([])
      .describe(
        "Gateway origins the UI's playground may call, e.g. https://mcp.example.com (ATRIUM_UI_GATEWAY_ORIGINS, added to the UI's Content-Security-Policy). Each gateway must list the UI's origin in its chart's gateway.corsOrigins.",
      ),
  })
  .prefault({})
  .describe(
    "The web UI (the web-ui component): static files the control plane serves itself, on the same origin as the REST API.",
  );

export const controlPlaneValues = z
  .strictObject({
    ...chartBasics(),
    ctrl,
    persistence,
    externalDatabase,
    encryptionKey,
    admin,
    webUi,
    ingress,
    podDisruptionBudget,
    serviceMonitor,
    prometheusRule,
    grafanaDashboard,
  })
  .describe("Values of the control-plane chart.");
