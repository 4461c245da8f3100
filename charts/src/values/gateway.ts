/**
 * Values of charts/gateway: the image, replicas or HPA, the identity it registers with (labels,
 * FQDNs), how it reaches the control plane (`gateway.controlPlane.*`, the spec's Helm structure)
 * and the cluster keystore all replicas share.
 */
import { fqdn } from "@atrium/contract";
import { webOrigin } from "@atrium/contract/origins";
import { labelMap } from "@atrium/crds";
import { z } from "zod";
import {
  chartBasics,
  controlPlaneConnection,
  extraEnv,
  extraVolumes,
  image,
  ingress,
  logLevel,
  podDisruptionBudget,
  podPlacement,
  prometheusRule,
  resources,
  serviceMonitor,
} from "./common.ts";

const controlPlane = z
  .strictObject({
    ...controlPlaneConnection({
      name: "atrium-gateway-token",
      description:
        "Secret holding the gateways' API token (`atrium api-token create <name> --role gateway`), mounted as a file.",
    }),
    token: z
      .string()
      .default("")
      .describe("Deprecated: the token itself, stored in a Secret of the chart. Takes precedence; use existingSecret."),
  })
  .prefault({})
  .describe("How the gateways reach the control plane.");

const gateway = z
  .strictObject({
    controlPlane,
    labels: labelMap
      .default({})
      .describe("Labels the gateways advertise; Gateway Groups select gateways by them (ATRIUM_GATEWAY_LABELS)."),
    fqdns: z
      .array(fqdn)
      .max(32)
      .default([])
      .describe(
        "Host names (optionally :port) clients reach the gateways at, shown as Exposition endpoints (ATRIUM_GATEWAY_FQDNS). Empty: the Service's cluster DNS name and port.",
      ),
    allowedHosts: z
      .array(z.string().min(1))
      .default([])
      .describe(
        "More Host header names MCP requests may use besides the FQDNs (ATRIUM_GATEWAY_ALLOWED_HOSTS); the Service's short names are always allowed.",
      ),
    corsOrigins: z
      .array(webOrigin)
      .max(32)
      .default([])
      .describe(
        "Browser origins that may call the MCP endpoints (CORS, ATRIUM_GATEWAY_CORS_ORIGINS), e.g. the web UI's https://atrium.example.com for its playground. Empty: no CORS.",
      ),
    envAllow: z
      .array(z.string().min(1))
      .default([])
      .describe(
        "Environment variables backend secrets may reference as ${env:NAME}: names and globs (ATRIUM_GATEWAY_ENV_ALLOW). Empty: ATRIUM_BACKEND_SECRET_*.",
      ),
  })
  .prefault({})
  .describe("The gateway's registration and control-plane connection.");

const autoscaling = z
  .strictObject({
    enabled: z.boolean().default(false).describe("Create a HorizontalPodAutoscaler (replicas is then ignored)."),
    minReplicas: z.int().min(1).default(2).describe("Fewest replicas."),
    maxReplicas: z.int().min(1).default(10).describe("Most replicas."),
    targetCPUUtilizationPercentage: z.int().min(1).max(100).default(80).describe("Average CPU use aimed at."),
  })
  .prefault({})
  .describe("HorizontalPodAutoscaler.");

const service = z
  .strictObject({
    type: z.enum(["ClusterIP", "NodePort", "LoadBalancer"]).default("ClusterIP").describe("Service type."),
    port: z.int().min(1).max(65535).default(7777).describe("Service port of MCP and /q/health."),
    managementPort: z.int().min(1).max(65535).default(9090).describe("Service port of /q/metrics."),
  })
  .prefault({})
  .describe("The gateways' Service.");

export const gatewayValues = z
  .strictObject({
    ...chartBasics(),
    image: image("atrium/gateway"),
    replicas: z.int().min(1).default(2).describe("Gateway replicas (when autoscaling is off)."),
    autoscaling,
    resources: resources({ requests: { cpu: "100m", memory: "128Mi" }, limits: { memory: "512Mi" } }),
    logLevel,
    gateway,
    extraEnv: extraEnv(
      "Extra environment variables of the gateways, e.g. backend secrets ATRIUM_BACKEND_SECRET_* from a Secret (valueFrom).",
    ),
    ...extraVolumes(),
    service,
    ingress,
    podDisruptionBudget,
    serviceMonitor,
    prometheusRule,
    ...podPlacement(),
  })
  .describe("Values of the gateway chart.");
