/**
 * Value shapes shared by the charts: image, resources, env entries, pod placement, ingress, PDB,
 * ServiceMonitor. Every leaf has a default and a description: the generator turns them into each
 * chart's values.yaml (with comments), values.schema.json and README table.
 */
import { z } from "zod";

/** `{ repository, tag, pullPolicy }`; an empty tag means the chart's appVersion. */
export function image(repository: string) {
  return z
    .strictObject({
      repository: z.string().min(1).default(repository).describe("Image repository."),
      tag: z.string().default("").describe("Image tag; empty means the chart's appVersion. Pin it for upgrades."),
      pullPolicy: z
        .enum(["Always", "IfNotPresent", "Never"])
        .default("IfNotPresent")
        .describe("Kubernetes imagePullPolicy."),
    })
    .prefault({})
    .describe("The container image.");
}

const quantity = z.union([z.string(), z.number()]);

export function resources(defaults: { requests: Record<string, string>; limits: Record<string, string> }) {
  return z
    .strictObject({
      requests: z.record(z.string(), quantity).optional(),
      limits: z.record(z.string(), quantity).optional(),
    })
    .default(defaults)
    .describe("Container resource requests and limits.");
}

/** A Kubernetes EnvVar: `value`, or `valueFrom` (secretKeyRef, configMapKeyRef, fieldRef, …). */
const envVar = z.strictObject({
  name: z.string().min(1),
  value: z.string().optional(),
  valueFrom: z.record(z.string(), z.unknown()).optional(),
});

export function extraEnv(description: string) {
  return z.array(envVar).default([]).describe(description);
}

/** More volumes and mounts for the workload's pod, e.g. a CA bundle for NODE_EXTRA_CA_CERTS. */
export function extraVolumes() {
  return {
    extraVolumes: z
      .array(z.record(z.string(), z.unknown()))
      .default([])
      .describe("Extra volumes of the pods (Kubernetes volume entries)."),
    extraVolumeMounts: z
      .array(z.record(z.string(), z.unknown()))
      .default([])
      .describe("Extra volume mounts of the container (Kubernetes volumeMount entries)."),
  };
}

const stringMap = (description: string) => z.record(z.string(), z.string()).default({}).describe(description);

/** Where and how the pods run; spread into a workload's value object. */
export function podPlacement() {
  return {
    podAnnotations: stringMap("Extra annotations on the pods."),
    podLabels: stringMap("Extra labels on the pods."),
    nodeSelector: stringMap("Kubernetes nodeSelector of the pods."),
    tolerations: z.array(z.record(z.string(), z.unknown())).default([]).describe("Kubernetes tolerations of the pods."),
    affinity: z.record(z.string(), z.unknown()).default({}).describe("Kubernetes affinity of the pods."),
    priorityClassName: z.string().default("").describe("PriorityClass of the pods; empty for none."),
  };
}

export const logLevel = z
  .enum(["fatal", "error", "warn", "info", "debug", "trace"])
  .default("info")
  .describe("Log level (ATRIUM_LOG_LEVEL). debug and trace can log credentials: only briefly.");

export const podDisruptionBudget = z
  .strictObject({
    enabled: z.boolean().default(true).describe("Create a PodDisruptionBudget (when more than one replica runs)."),
    maxUnavailable: z
      .union([z.int().min(0), z.string()])
      .default(1)
      .describe("Pods that may be down at once."),
  })
  .prefault({})
  .describe("PodDisruptionBudget.");

export const serviceMonitor = z
  .strictObject({
    enabled: z.boolean().default(false).describe("Create a Prometheus Operator ServiceMonitor (needs its CRD)."),
    interval: z.string().default("30s").describe("Scrape interval."),
    labels: stringMap("Extra labels, e.g. the one your Prometheus selects ServiceMonitors by."),
  })
  .prefault({})
  .describe("Prometheus Operator ServiceMonitor for /q/metrics.");

export const prometheusRule = z
  .strictObject({
    enabled: z
      .boolean()
      .default(false)
      .describe(
        "Create a Prometheus Operator PrometheusRule with Atrium's alerts on this component (needs its CRD; the list: docs/observability.md).",
      ),
    labels: stringMap("Extra labels, e.g. the one your Prometheus selects rules by (its ruleSelector)."),
  })
  .prefault({})
  .describe("Prometheus Operator PrometheusRule: the alerts of charts/observability/rules.");

export const grafanaDashboard = z
  .strictObject({
    enabled: z
      .boolean()
      .default(false)
      .describe(
        "Create a ConfigMap holding Atrium's Grafana dashboard (charts/observability/atrium-dashboard.json) for Grafana's dashboard sidecar.",
      ),
    labels: z
      .record(z.string(), z.string())
      .default({ grafana_dashboard: "1" })
      .describe(
        'Labels of the ConfigMap: the one Grafana\'s sidecar looks for (its default is grafana_dashboard: "1").',
      ),
    annotations: stringMap("Annotations of the ConfigMap, e.g. grafana_folder for the sidecar's folder."),
  })
  .prefault({})
  .describe("Grafana dashboard of the gateways, tools, control plane and controllers.");

export const ingress = z
  .strictObject({
    enabled: z.boolean().default(false).describe("Create an Ingress."),
    className: z.string().default("").describe("IngressClass name; empty for the cluster's default."),
    annotations: stringMap("Ingress annotations."),
    hosts: z
      .array(
        z.strictObject({
          host: z.string().min(1),
          paths: z.array(z.string().startsWith("/")).default(["/"]),
        }),
      )
      .default([])
      .describe("Host names and path prefixes routed to the Service."),
    tls: z
      .array(z.strictObject({ secretName: z.string().min(1), hosts: z.array(z.string()).default([]) }))
      .default([])
      .describe("TLS: Secrets with the certificates of the hosts."),
  })
  .prefault({})
  .describe("Ingress to the Service.");

export const imagePullSecrets = z
  .array(z.strictObject({ name: z.string().min(1) }))
  .default([])
  .describe("Secrets for pulling the images from a private registry.");

/** How a component reaches the control plane: URL, and the Secret (mounted as a file) holding its API token. */
export function controlPlaneConnection(secret: { name: string; description: string }) {
  return {
    url: z
      .string()
      .regex(/^https?:\/\/[^\s/]+/, { message: "must be an http:// or https:// URL" })
      .default("http://atrium-control-plane:5555")
      .describe("The control plane's base URL, TLS or plaintext (ATRIUM_CONTROL_PLANE_URL)."),
    existingSecret: z.string().default(secret.name).describe(secret.description),
    tokenKey: z.string().min(1).default("token").describe("Key of the token in existingSecret."),
  };
}

/** Values every chart accepts at the top: name overrides, pull secrets, and Helm's `global`. */
export function chartBasics() {
  return {
    nameOverride: z.string().default("").describe("Replaces the chart name in object names."),
    fullnameOverride: z.string().default("").describe("Replaces the whole prefix of object names."),
    imagePullSecrets,
    // Helm passes `global` to subcharts; accepted, unused, and left out of values.yaml.
    global: z.record(z.string(), z.unknown()).optional(),
  };
}
