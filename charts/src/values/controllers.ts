/**
 * Values of charts/controllers: the operator (`operator.*`) with its RBAC and leader election, and
 * the admission controller (`admissionController.*`) with its serving certificate.
 */
import { z } from "zod";
import {
  chartBasics,
  controlPlaneConnection,
  extraEnv,
  extraVolumes,
  image,
  logLevel,
  podDisruptionBudget,
  podPlacement,
  prometheusRule,
  resources,
  serviceMonitor,
} from "./common.ts";

const controlPlane = z
  .strictObject(
    controlPlaneConnection({
      name: "atrium-operator-token",
      description:
        "Secret holding the operator's API token (`atrium api-token create k8s-operator --role operator`), mounted as a file and read again after a 401.",
    }),
  )
  .prefault({})
  .describe("How the operator reaches the control plane; the token's organization receives the resources.");

const operator = z
  .strictObject({
    image: image("atrium/operator"),
    replicas: z.int().min(1).default(2).describe("Operator replicas: one leads, the others stand by."),
    resources: resources({ requests: { cpu: "100m", memory: "256Mi" }, limits: { memory: "512Mi" } }),
    logLevel,
    controlPlane,
    watchNamespaces: z
      .array(z.string().min(1))
      .default([])
      .describe(
        "Namespaces to watch (ATRIUM_WATCH_NAMESPACES). Empty: every namespace, with cluster-wide RBAC. Set: RoleBindings in those namespaces only.",
      ),
    leaderElection: z
      .strictObject({
        enabled: z.boolean().default(true).describe("Compete for a Lease; off only for a single replica."),
        leaseName: z.string().min(1).default("atrium-operator").describe("Name of the Lease in the release namespace."),
      })
      .prefault({})
      .describe("Leader election (coordination.k8s.io/v1 Lease)."),
    extraEnv: extraEnv("Extra environment variables of the operator, e.g. ATRIUM_OPERATOR_CONCURRENCY."),
    ...extraVolumes(),
    podDisruptionBudget,
    ...podPlacement(),
  })
  .prefault({})
  .describe("The operator.");

const certificate = z
  .strictObject({
    certManager: z
      .strictObject({
        enabled: z
          .boolean()
          .default(false)
          .describe("Let cert-manager issue the certificate and inject the CA (needs cert-manager)."),
        issuerRef: z
          .strictObject({
            name: z.string().default("").describe("Issuer name; empty: a self-signed Issuer of the chart."),
            kind: z.enum(["Issuer", "ClusterIssuer"]).default("Issuer").describe("Issuer or ClusterIssuer."),
          })
          .prefault({})
          .describe("The cert-manager issuer."),
      })
      .prefault({})
      .describe("cert-manager."),
    validityDays: z
      .int()
      .min(1)
      .default(3650)
      .describe("Without cert-manager: validity of the generated CA and certificate, kept across upgrades."),
  })
  .prefault({})
  .describe("The webhook's serving certificate.");

const admissionController = z
  .strictObject({
    enabled: z.boolean().default(true).describe("Deploy the validating admission webhook."),
    image: image("atrium/webhook"),
    replicas: z.int().min(1).default(2).describe("Webhook replicas."),
    resources: resources({ requests: { cpu: "50m", memory: "128Mi" }, limits: { memory: "256Mi" } }),
    logLevel,
    failurePolicy: z
      .enum(["Fail", "Ignore"])
      .default("Fail")
      .describe("What the API server does when the webhook cannot answer."),
    timeoutSeconds: z.int().min(1).max(30).default(5).describe("How long the API server waits for an answer."),
    certificate,
    extraEnv: extraEnv("Extra environment variables of the webhook (ATRIUM_WEBHOOK_*; valueFrom works)."),
    ...extraVolumes(),
    podDisruptionBudget,
    ...podPlacement(),
  })
  .prefault({})
  .describe("The admission controller (validating webhook).");

export const controllersValues = z
  .strictObject({
    ...chartBasics(),
    operator,
    admissionController,
    serviceMonitor,
    prometheusRule,
  })
  .describe("Values of the controllers chart.");
