/**
 * The charts through the real helm binary, without a cluster: lint, render with the defaults and
 * with every value set, values refused by values.schema.json, and the checks the templates make.
 */
import { X509Certificate } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import {
  chartPath,
  envOf,
  find,
  type HelmResult,
  helmRunner,
  type Manifest,
  manifests,
  testValuesPath,
} from "./testing.ts";
import { charts } from "./values/charts.ts";

const runner = helmRunner();
afterAll(() => runner.dispose());

function template(chart: string, ...args: string[]): Manifest[] {
  const result = runner.helm(["template", "atrium", chartPath(chart), "-n", "atrium-system", ...args]);
  expect(result.status, result.stderr).toBe(0);
  return manifests(result.stdout);
}

function refused(chart: string, ...args: string[]): HelmResult {
  const result = runner.helm(["template", "atrium", chartPath(chart), "-n", "atrium-system", ...args]);
  expect(result.status, result.stdout).not.toBe(0);
  return result;
}

const decode = (value: string) => Buffer.from(value, "base64").toString("utf8");
const containerOf = (deployment: Manifest) => deployment.spec.template.spec.containers[0];

/** Values an origin setting must refuse: a path, a trailing slash, a wildcard, upper case, another scheme, no scheme. */
const badOrigins = [
  "https://atrium.example.com/ui",
  "https://atrium.example.com/",
  "https://*.example.com",
  "https://Atrium.example.com",
  "ftp://atrium.example.com",
  "atrium.example.com",
];

describe.each(charts.map((chart) => chart.name))("chart %s", (chart) => {
  it("lints clean with its defaults and with every value set", () => {
    for (const args of [[], ["-f", testValuesPath(chart)]]) {
      const result = runner.helm(["lint", "--strict", chartPath(chart), ...args]);
      expect(result.status, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).not.toMatch(/\[(WARNING|ERROR)\]/);
    }
  });

  it("runs every pod as uid 1000, read-only, without capabilities, under RuntimeDefault seccomp", () => {
    for (const args of [[], ["-f", testValuesPath(chart)]]) {
      const deployments = template(chart, ...args).filter((o) => o.kind === "Deployment");
      expect(deployments.length).toBeGreaterThan(0);
      for (const deployment of deployments) {
        const pod = deployment.spec.template.spec;
        expect(pod.securityContext).toMatchObject({
          runAsNonRoot: true,
          runAsUser: 1000,
          seccompProfile: { type: "RuntimeDefault" },
        });
        expect(pod.enableServiceLinks).toBe(false);
        for (const container of pod.containers) {
          expect(container.securityContext).toEqual({
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            runAsNonRoot: true,
            capabilities: { drop: ["ALL"] },
          });
          expect(container.volumeMounts).toContainEqual({ name: "tmp", mountPath: "/tmp" });
          expect(container.readinessProbe.httpGet.path).toBe("/q/health/ready");
          expect(container.livenessProbe.httpGet.path).toBe("/q/health/live");
        }
      }
    }
  });

  it("adds extraVolumes and extraVolumeMounts to every workload", () => {
    for (const deployment of template(chart, "-f", testValuesPath(chart)).filter((o) => o.kind === "Deployment")) {
      const pod = deployment.spec.template.spec;
      const volume = pod.volumes.at(-1).name;
      expect(["company-ca", "scratch"]).toContain(volume);
      expect(pod.containers[0].volumeMounts.at(-1).name).toBe(volume);
    }
  });

  it("uses the appVersion as image tag by default, IfNotPresent", () => {
    for (const deployment of template(chart).filter((o) => o.kind === "Deployment")) {
      expect(containerOf(deployment).image).toMatch(/^atrium\/[a-z-]+:0\.1\.0$/);
      expect(containerOf(deployment).imagePullPolicy).toBe("IfNotPresent");
    }
  });

  it("refuses a misspelt value, naming it and where it is (template and lint)", () => {
    const top = refused(chart, "--set", "replicaz=3");
    expect(top.stderr).toContain("values don't meet the specifications of the schema");
    expect(top.stderr).toContain("additional properties 'replicaz' not allowed");
    const nested = refused(chart, "--set", "podDisruptionBudget.maxUnavailble=1");
    const path = chart === "controllers" ? "" : "/podDisruptionBudget";
    if (chart === "controllers") {
      // The controllers chart keeps its PDBs per workload: the top-level key itself is unknown.
      expect(nested.stderr).toContain("additional properties 'podDisruptionBudget' not allowed");
    } else {
      expect(nested.stderr).toContain(`at '${path}': additional properties 'maxUnavailble' not allowed`);
    }
    const lint = runner.helm(["lint", chartPath(chart), "--set", "replicaz=3"]);
    expect(lint.status).not.toBe(0);
    expect(lint.stdout + lint.stderr).toContain("additional properties 'replicaz' not allowed");
  });

  it("refuses a value of the wrong type", () => {
    const key = { "control-plane": "ctrl.replicas", gateway: "replicas", controllers: "operator.replicas" }[chart];
    const result = refused(chart, "--set-string", `${key}=two`);
    expect(result.stderr).toMatch(/got string, want integer/);
  });
});

describe("control-plane", () => {
  it("by default: embedded database, generated and kept encryption key and admin password", () => {
    const objects = template("control-plane");
    const deployment = find(objects, "Deployment", "atrium-control-plane");
    expect(deployment.spec.strategy).toEqual({ type: "Recreate" });
    const env = envOf(containerOf(deployment));
    expect(env.ATRIUM_DATABASE_URL).toBeUndefined();
    expect(env.ATRIUM_DATA_DIR).toBe("/var/lib/atrium/data"); // below the volume's mount point
    expect(env.ATRIUM_ENCRYPTION_KEYS).toBe("v1=$(ATRIUM_ENCRYPTION_KEY_0)");
    expect(env.ATRIUM_ENCRYPTION_KEY_0).toEqual({
      secretKeyRef: { name: "atrium-control-plane-encryption-key", key: "encryption-key-v1" },
    });
    expect(env.ATRIUM_ENCRYPTION_ACTIVE_KEY_ID).toBe("v1");
    expect(env.ATRIUM_UI_DIR).toBeUndefined(); // the web UI is opt-in
    expect(env.ATRIUM_ADMIN_PASSWORD).toEqual({
      secretKeyRef: { name: "atrium-control-plane-admin", key: "password" },
    });
    const keys = find(objects, "Secret", "atrium-control-plane-encryption-key");
    expect(keys.metadata.annotations["helm.sh/resource-policy"]).toBe("keep");
    expect(Buffer.from(decode(keys.data["encryption-key-v1"]), "base64")).toHaveLength(32);
    const admin = find(objects, "Secret", "atrium-control-plane-admin");
    expect(admin.metadata.annotations["helm.sh/resource-policy"]).toBe("keep");
    expect(decode(admin.data.password)).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(deployment.spec.template.spec.volumes).toContainEqual({ name: "data", emptyDir: {} });
    expect(objects.some((o) => o.kind === "PodDisruptionBudget")).toBe(false); // one replica
    expect(objects.some((o) => o.kind === "ServiceMonitor")).toBe(false); // off by default
    // Metrics on their own port, off loopback so Prometheus reaches them; the Service names it.
    expect(env).toMatchObject({ ATRIUM_MANAGEMENT_HOST: "0.0.0.0", ATRIUM_MANAGEMENT_PORT: "9090" });
    expect(containerOf(deployment).ports).toContainEqual({ name: "management", containerPort: 9090 });
    expect(find(objects, "Service").spec.ports).toContainEqual({
      name: "management",
      port: 9090,
      targetPort: "management",
    });
  });

  it("maps every value onto the control plane's environment", () => {
    const objects = template("control-plane", "-f", testValuesPath("control-plane"));
    const deployment = find(objects, "Deployment", "atrium-cp");
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.spec.strategy).toBeUndefined();
    const container = containerOf(deployment);
    expect(container.image).toBe("localhost/atrium/control-plane:0.2.0");
    const env = envOf(container);
    expect(env).toMatchObject({
      ATRIUM_DATABASE_URL: "postgres://atrium_app@postgres.db.svc:6432/atrium_prod?sslmode=require",
      PGPASSWORD: { secretKeyRef: { name: "atrium-db", key: "pg-password" } },
      ATRIUM_ENCRYPTION_KEY_0: { secretKeyRef: { name: "atrium-encryption", key: "encryption-key-v1" } },
      ATRIUM_ENCRYPTION_KEY_1: { secretKeyRef: { name: "atrium-encryption", key: "encryption-key-v2" } },
      ATRIUM_ENCRYPTION_KEYS: "v1=$(ATRIUM_ENCRYPTION_KEY_0),v2=$(ATRIUM_ENCRYPTION_KEY_1)",
      ATRIUM_ENCRYPTION_ACTIVE_KEY_ID: "v2",
      ATRIUM_ENCRYPTION_LEGACY_KEY: { secretKeyRef: { name: "atrium-encryption", key: "encryption-key" } },
      ATRIUM_ADMIN_ORGANIZATION: "acme",
      ATRIUM_ADMIN_USERNAME: "root",
      ATRIUM_ADMIN_PASSWORD: { secretKeyRef: { name: "atrium-admin", key: "admin-password" } },
      ATRIUM_IMPORT_ALLOW_HOSTS: "specs.internal,10.0.0.0/8:8080",
      ATRIUM_UI_DIR: "/app/ui/dist",
      ATRIUM_UI_GATEWAY_ORIGINS: "https://mcp.example.com,http://mcp-internal.example.com:8080",
      ATRIUM_LOG_LEVEL: "warn",
      ATRIUM_LOGIN_TTL_SECONDS: "3600",
    });
    // $(NAME) expands only names defined earlier in the list.
    const names = container.env.map((entry: Manifest) => entry.name);
    expect(names.indexOf("ATRIUM_ENCRYPTION_KEY_1")).toBeLessThan(names.indexOf("ATRIUM_ENCRYPTION_KEYS"));
    expect(objects.filter((o) => o.kind === "Secret")).toEqual([]); // every Secret is the user's
    expect(find(objects, "Ingress").spec.rules[0].http.paths.map((p: Manifest) => p.path)).toEqual(["/api", "/q"]);
    expect(find(objects, "PodDisruptionBudget").spec.maxUnavailable).toBe(2);
    expect(find(objects, "Service").spec).toMatchObject({
      type: "NodePort",
      ports: [
        { name: "http", port: 8080, targetPort: "http" },
        { name: "management", port: 9191, targetPort: "management" },
      ],
    });
    const monitor = find(objects, "ServiceMonitor", "atrium-cp");
    expect(monitor.metadata.labels.release).toBe("prometheus");
    expect(monitor.spec).toEqual({
      selector: { matchLabels: deployment.spec.selector.matchLabels },
      endpoints: [{ port: "management", path: "/q/metrics", interval: "15s" }],
    });
    expect(objects.some((o) => o.kind === "PersistentVolumeClaim")).toBe(false); // external database
  });

  it("generates a new key id's entry and keeps the password out of the URL", () => {
    const objects = template(
      "control-plane",
      ...["--set", "encryptionKey.keys.v2.key=encryption-key-v2", "--set", "externalDatabase.host=pg"],
      ...["--set", "externalDatabase.password=p@ss:word", "--set", "ctrl.replicas=2"],
    );
    const keys = find(objects, "Secret", "atrium-control-plane-encryption-key");
    expect(Object.keys(keys.data).sort()).toEqual(["encryption-key-v1", "encryption-key-v2"]);
    expect(decode(find(objects, "Secret", "atrium-control-plane-database").data.password)).toBe("p@ss:word");
    const env = envOf(containerOf(find(objects, "Deployment")));
    expect(env.ATRIUM_DATABASE_URL).toBe("postgres://atrium@pg:5432/atrium");
    expect(env.ATRIUM_ENCRYPTION_ACTIVE_KEY_ID).toBe("v1");
    expect(find(objects, "PodDisruptionBudget").spec.maxUnavailable).toBe(1);
  });

  it("keeps the embedded database on a claim when persistence is on", () => {
    const objects = template("control-plane", "--set", "persistence.enabled=true");
    expect(find(objects, "PersistentVolumeClaim", "atrium-control-plane-data").spec.resources.requests.storage).toBe(
      "1Gi",
    );
  });

  it("refuses combinations that cannot work, saying what to change", () => {
    expect(refused("control-plane", "--set", "ctrl.replicas=2").stderr).toContain(
      "ctrl.replicas > 1 needs externalDatabase.host",
    );
    expect(refused("control-plane", "--set", "encryptionKey.activeKeyId=v2").stderr).toContain(
      "encryptionKey.activeKeyId 'v2' is not in encryptionKey.keys (v1): add the key first",
    );
    expect(refused("control-plane", "--set", "encryptionKey.key=encryption-key").stderr).toContain(
      "a legacy key cannot be generated",
    );
    expect(refused("control-plane", "--set", "webUi.gatewayOrigins[0]=https://mcp.example.com").stderr).toContain(
      "webUi.gatewayOrigins is for the web UI's playground: set webUi.enabled=true too",
    );
  });

  it("refuses a web UI gateway origin that is not scheme://host[:port]", () => {
    for (const origin of badOrigins) {
      const result = refused(
        "control-plane",
        "--set",
        "webUi.enabled=true",
        "--set",
        `webUi.gatewayOrigins[0]=${origin}`,
      );
      expect(result.stderr, origin).toContain("/webUi/gatewayOrigins/0");
    }
  });

  it("prints the web UI's URL when it is served: through the port-forward, or the Ingress host", () => {
    const notes = (...args: string[]) => {
      const result = runner.helm(["install", "atrium", chartPath("control-plane"), "--dry-run=client", ...args]);
      expect(result.status, result.stderr).toBe(0);
      return result.stdout.slice(result.stdout.indexOf("NOTES:"));
    };
    expect(notes()).not.toContain("Web UI");
    const forwarded = notes("--set", "webUi.enabled=true");
    expect(forwarded).toContain("Web UI: http://127.0.0.1:5555/ (through the port-forward above)");
    expect(forwarded).toContain("Its playground calls no gateway until webUi.gatewayOrigins lists them");
    const ingress = notes(
      ...["--set", "webUi.enabled=true", "--set", "webUi.gatewayOrigins[0]=https://mcp.example.com"],
      ...["--set", "ingress.enabled=true", "--set", "ingress.hosts[0].host=atrium.example.com"],
    );
    expect(ingress).toContain("Web UI: http://atrium.example.com/\n");
    expect(ingress).not.toContain("Its playground calls no gateway");
    const tls = notes(
      ...[
        "--set",
        "webUi.enabled=true",
        "--set",
        "ingress.enabled=true",
        "--set",
        "ingress.hosts[0].host=atrium.example.com",
      ],
      ...["--set", "ingress.tls[0].secretName=atrium-tls", "--set", "ingress.tls[0].hosts[0]=atrium.example.com"],
    );
    expect(tls).toContain("Web UI: https://atrium.example.com/\n");
  });
});

describe("gateway", () => {
  it("by default: the cluster keystore mounted as volume cluster-keystore, the token as a file", () => {
    const objects = template("gateway");
    const keystore = find(objects, "Secret", "atrium-gateway-cluster-keystore");
    expect(keystore.metadata.annotations["helm.sh/resource-policy"]).toBe("keep");
    expect(Buffer.from(decode(keystore.data["session-key"]), "base64")).toHaveLength(32);
    expect(Buffer.from(decode(keystore.data["cluster-key"]), "base64")).toHaveLength(32);
    expect(keystore.data["cluster-key"]).not.toBe(keystore.data["session-key"]);
    const deployment = find(objects, "Deployment", "atrium-gateway");
    const pod = deployment.spec.template.spec;
    expect(pod.volumes).toContainEqual({
      name: "cluster-keystore",
      secret: { secretName: "atrium-gateway-cluster-keystore", defaultMode: 0o440 },
    });
    expect(pod.volumes).toContainEqual({
      name: "control-plane-token",
      secret: { secretName: "atrium-gateway-token", defaultMode: 0o440, items: [{ key: "token", path: "token" }] },
    });
    const container = containerOf(deployment);
    expect(container.volumeMounts).toContainEqual({
      name: "cluster-keystore",
      mountPath: "/etc/atrium/cluster-keystore",
      readOnly: true,
    });
    expect(envOf(container)).toMatchObject({
      ATRIUM_CONTROL_PLANE_URL: "http://atrium-control-plane:5555",
      ATRIUM_CONTROL_PLANE_TOKEN_FILE: "/etc/atrium/control-plane/token",
      ATRIUM_GATEWAY_SESSION_KEY_FILE: "/etc/atrium/cluster-keystore/session-key",
      ATRIUM_GATEWAY_CLUSTER_KEY_FILE: "/etc/atrium/cluster-keystore/cluster-key",
      ATRIUM_GATEWAY_FQDNS: "atrium-gateway.atrium-system.svc.cluster.local:7777",
      ATRIUM_GATEWAY_ALLOWED_HOSTS: "atrium-gateway,atrium-gateway.atrium-system,atrium-gateway.atrium-system.svc",
      ATRIUM_GATEWAY_MANAGEMENT_HOST: "0.0.0.0",
      ATRIUM_GATEWAY_MANAGEMENT_PORT: "9090",
      ATRIUM_GATEWAY_CACHE_DIR: "/var/lib/atrium",
    });
    expect(envOf(container).ATRIUM_CONTROL_PLANE_TOKEN).toBeUndefined();
    expect(envOf(container).ATRIUM_GATEWAY_CORS_ORIGINS).toBeUndefined(); // no CORS unless listed
    expect(deployment.spec.replicas).toBe(2);
    expect(find(objects, "PodDisruptionBudget").spec.maxUnavailable).toBe(1);
  });

  it("maps every value onto the gateway's environment", () => {
    const objects = template("gateway", "-f", testValuesPath("gateway"));
    const deployment = find(objects, "Deployment", "atrium-gw");
    expect(deployment.spec.replicas).toBeUndefined(); // the HPA decides
    const container = containerOf(deployment);
    expect(envOf(container)).toMatchObject({
      ATRIUM_CONTROL_PLANE_URL: "https://atrium-cp.atrium-system.svc:8443",
      ATRIUM_GATEWAY_LABELS: "atrium.dev/zone=eu-west-1a,env=prod",
      ATRIUM_GATEWAY_FQDNS: "mcp.example.com,mcp-internal.example.com:8443",
      ATRIUM_GATEWAY_ALLOWED_HOSTS:
        "atrium-gw,atrium-gw.atrium-system,atrium-gw.atrium-system.svc,mcp-alias.example.com",
      ATRIUM_GATEWAY_CORS_ORIGINS: "https://atrium.example.com",
      ATRIUM_GATEWAY_ENV_ALLOW: "PETS_TOKEN,BILLING_*",
      ATRIUM_LOG_LEVEL: "debug",
      PETS_TOKEN: { secretKeyRef: { name: "backend-secrets", key: "pets" } },
    });
    expect(deployment.spec.template.spec.volumes).toContainEqual({
      name: "control-plane-token",
      secret: { secretName: "gateway-token", defaultMode: 0o440, items: [{ key: "api-token", path: "token" }] },
    });
    expect(find(objects, "HorizontalPodAutoscaler").spec).toMatchObject({ minReplicas: 3, maxReplicas: 12 });
    expect(find(objects, "ServiceMonitor").spec.endpoints).toEqual([
      { port: "management", path: "/q/metrics", interval: "15s" },
    ]);
    expect(find(objects, "Service").spec.ports).toEqual([
      { name: "http", port: 80, targetPort: "http" },
      { name: "management", port: 9191, targetPort: "management" },
    ]);
    expect(find(objects, "PodDisruptionBudget").spec.maxUnavailable).toBe("25%");
  });

  it("refuses an FQDN, label or CORS origin the components would refuse", () => {
    expect(refused("gateway", "--set", "gateway.fqdns[0]=Not A Host").stderr).toContain("/gateway/fqdns/0");
    for (const origin of badOrigins) {
      expect(refused("gateway", "--set", `gateway.corsOrigins[0]=${origin}`).stderr, origin).toContain(
        "/gateway/corsOrigins/0",
      );
    }
    // helm's validator misplaces propertyNames errors, but names the key and the rule.
    expect(refused("gateway", "--set", "gateway.labels.bad\\ key=x").stderr).toContain(
      "invalid propertyName 'bad key'",
    );
  });

  it("still takes the deprecated gateway.controlPlane.token, with a warning in the NOTES", () => {
    const install = (...args: string[]) =>
      runner.helm(["install", "atrium", chartPath("gateway"), "--dry-run=client", ...args]);
    const deprecated = install("--set", "gateway.controlPlane.token=atr_t_legacy");
    expect(deprecated.status, deprecated.stderr).toBe(0);
    expect(deprecated.stdout).toContain("WARNING: gateway.controlPlane.token is deprecated");
    const objects = manifests(deprecated.stdout.slice(0, deprecated.stdout.indexOf("NOTES:")));
    expect(decode(find(objects, "Secret", "atrium-gateway-control-plane-token").data.token)).toBe("atr_t_legacy");
    const volumes = find(objects, "Deployment").spec.template.spec.volumes;
    expect(volumes).toContainEqual({
      name: "control-plane-token",
      secret: {
        secretName: "atrium-gateway-control-plane-token",
        defaultMode: 0o440,
        items: [{ key: "token", path: "token" }],
      },
    });
    const annotations = find(objects, "Deployment").spec.template.metadata.annotations;
    expect(annotations["checksum/control-plane-token"]).toMatch(/^[0-9a-f]{64}$/); // a new token rolls the pods
    const current = install();
    expect(current.status, current.stderr).toBe(0);
    expect(current.stdout).not.toContain("deprecated");
  });
});

describe("controllers", () => {
  it("by default: cluster-wide RBAC, leader election, a generated webhook certificate the API server trusts", () => {
    const objects = template("controllers");
    expect(find(objects, "ClusterRoleBinding", "atrium-controllers-operator").subjects).toEqual([
      { kind: "ServiceAccount", name: "atrium-controllers-operator", namespace: "atrium-system" },
    ]);
    const operator = find(objects, "Deployment", "atrium-controllers-operator");
    expect(operator.spec.template.spec.serviceAccountName).toBe("atrium-controllers-operator");
    expect(envOf(containerOf(operator))).toMatchObject({
      ATRIUM_CONTROL_PLANE_URL: "http://atrium-control-plane:5555",
      ATRIUM_CONTROL_PLANE_TOKEN_FILE: "/etc/atrium/control-plane/token",
      ATRIUM_LEADER_ELECTION: "true",
      ATRIUM_LEADER_ELECTION_NAMESPACE: "atrium-system",
      ATRIUM_LEADER_ELECTION_LEASE_NAME: "atrium-operator",
      POD_NAME: { fieldRef: { fieldPath: "metadata.name" } },
    });
    expect(envOf(containerOf(operator)).ATRIUM_WATCH_NAMESPACES).toBeUndefined();
    const webhook = find(objects, "Deployment", "atrium-controllers-webhook");
    expect(webhook.spec.template.spec.automountServiceAccountToken).toBe(false);
    expect(envOf(containerOf(webhook)).ATRIUM_WEBHOOK_TLS_DIR).toBe("/etc/atrium/webhook/tls");

    const tls = find(objects, "Secret", "atrium-controllers-webhook-tls");
    const configuration = find(objects, "ValidatingWebhookConfiguration", "atrium-controllers");
    const hook = configuration.webhooks[0];
    expect(hook.clientConfig.caBundle).toBe(tls.data["ca.crt"]);
    expect(hook.clientConfig.service).toEqual({
      name: "atrium-controllers-webhook",
      namespace: "atrium-system",
      path: "/validate",
      port: 443,
    });
    expect(hook.rules[0].resources).toHaveLength(8);
    const ca = new X509Certificate(decode(tls.data["ca.crt"]));
    const certificate = new X509Certificate(decode(tls.data["tls.crt"]));
    expect(certificate.verify(ca.publicKey)).toBe(true);
    expect(certificate.checkHost("atrium-controllers-webhook.atrium-system.svc")).toBe(
      "atrium-controllers-webhook.atrium-system.svc",
    );
    const years = (Date.parse(certificate.validTo) - Date.now()) / (365 * 24 * 3600 * 1000);
    expect(years).toBeGreaterThan(9.9);
  });

  it("maps every value: namespaced RBAC, cert-manager, ServiceMonitors", () => {
    const objects = template("controllers", "-f", testValuesPath("controllers"));
    expect(objects.some((o) => o.kind === "ClusterRoleBinding")).toBe(false);
    const bindings = objects.filter((o) => o.kind === "RoleBinding" && o.roleRef.kind === "ClusterRole");
    expect(bindings.map((b) => b.metadata.namespace).sort()).toEqual(["team-a", "team-b"]);
    const operator = find(objects, "Deployment", "atrium-ctl-operator");
    expect(envOf(containerOf(operator))).toMatchObject({
      ATRIUM_WATCH_NAMESPACES: "team-a,team-b",
      ATRIUM_LEADER_ELECTION_LEASE_NAME: "atrium-operator-acme",
      ATRIUM_OPERATOR_CONCURRENCY: "4",
    });
    const leaseRole = find(objects, "Role", "atrium-ctl-operator-leader-election");
    expect(leaseRole.rules[1].resourceNames).toEqual(["atrium-operator-acme"]);
    expect(find(objects, "Certificate").spec.issuerRef).toEqual({
      name: "company-ca",
      kind: "ClusterIssuer",
      group: "cert-manager.io",
    });
    expect(objects.some((o) => o.kind === "Issuer" || o.kind === "Secret")).toBe(false);
    const configuration = find(objects, "ValidatingWebhookConfiguration");
    expect(configuration.metadata.annotations["cert-manager.io/inject-ca-from"]).toBe(
      "atrium-system/atrium-ctl-webhook",
    );
    expect(configuration.webhooks[0].clientConfig.caBundle).toBeUndefined();
    expect(configuration.webhooks[0]).toMatchObject({ failurePolicy: "Ignore", timeoutSeconds: 10 });
    expect(envOf(containerOf(find(objects, "Deployment", "atrium-ctl-webhook")))).toMatchObject({
      ATRIUM_WEBHOOK_TLS_RELOAD_INTERVAL_MS: "1000",
    });
    expect(objects.filter((o) => o.kind === "ServiceMonitor").map((o) => o.metadata.name)).toEqual([
      "atrium-ctl-operator",
      "atrium-ctl-webhook",
    ]);
  });

  it("with cert-manager and no issuer: a self-signed Issuer of its own", () => {
    const objects = template("controllers", "--set", "admissionController.certificate.certManager.enabled=true");
    expect(find(objects, "Issuer", "atrium-controllers-selfsigned").spec).toEqual({ selfSigned: {} });
    expect(find(objects, "Certificate").spec.issuerRef.name).toBe("atrium-controllers-selfsigned");
  });

  it("without the webhook: no webhook objects", () => {
    const objects = template("controllers", "--set", "admissionController.enabled=false");
    expect(objects.map((o) => o.kind)).not.toContain("ValidatingWebhookConfiguration");
    expect(objects.filter((o) => o.kind === "Deployment")).toHaveLength(1);
  });

  it("refuses several operators without leader election", () => {
    expect(refused("controllers", "--set", "operator.leaderElection.enabled=false").stderr).toContain(
      "operator.replicas > 1 needs operator.leaderElection.enabled",
    );
    const single = template(
      "controllers",
      "--set",
      "operator.leaderElection.enabled=false",
      "--set",
      "operator.replicas=1",
    );
    expect(single.some((o) => o.kind === "Role")).toBe(false);
  });
});
