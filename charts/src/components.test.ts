/**
 * The environment each chart gives its pods, read by the component's own `configFromEnv`: the
 * values map onto settings the control plane, gateway, operator and webhook accept and understand
 * as meant (keys, token and keystore files, labels, FQDNs, leader election).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configFromEnv as controlPlaneConfig } from "@atrium/control-plane";
import { configFromEnv as gatewayConfig } from "@atrium/gateway";
import { configFromEnv as operatorConfig } from "@atrium/operator";
import { configFromEnv as webhookConfig } from "@atrium/webhook";
import { afterAll, describe, expect, it } from "vitest";
import { kubeletEnv, type SecretValues, secretValues } from "./kubelet-env.ts";
import { chartPath, find, helmRunner, type Manifest, manifests, testValuesPath } from "./testing.ts";

const runner = helmRunner();
const dir = mkdtempSync(join(tmpdir(), "atrium-chart-env-"));
afterAll(() => {
  runner.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function render(chart: string, ...args: string[]): Manifest[] {
  const result = runner.helm(["template", "atrium", chartPath(chart), "-n", "atrium-system", ...args]);
  expect(result.status, result.stderr).toBe(0);
  return manifests(result.stdout);
}

let pods = 0;
/** The environment of a Deployment's pod, with its Secret volumes written to a fresh folder. */
function podEnv(objects: Manifest[], deployment: string, supplied: SecretValues = {}): NodeJS.ProcessEnv {
  const folder = join(dir, `pod-${pods++}`);
  return kubeletEnv(find(objects, "Deployment", deployment), secretValues(objects, supplied), folder);
}

const key = () => randomBytes(32).toString("base64");

describe("the control plane reads its chart's environment", () => {
  it("defaults: the generated key set and admin password", () => {
    const objects = render("control-plane");
    const secrets = secretValues(objects);
    const config = controlPlaneConfig(podEnv(objects, "atrium-control-plane"));
    expect(config.encryption?.keyIds).toEqual(["v1"]);
    expect(config.encryption?.activeKeyId).toBe("v1");
    expect(config.bootstrap).toEqual({
      organization: "default",
      username: "admin",
      password: secrets["atrium-control-plane-admin"]?.password,
    });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.uiDir).toBeUndefined();
    expect(config.dataDir).toBe("/var/lib/atrium/data");
    expect(config).toMatchObject({ port: 5555, managementHost: "0.0.0.0", managementPort: 9090 });
  });

  it("every value: external database, two keys and the legacy one from the user's Secret", () => {
    const objects = render("control-plane", "-f", testValuesPath("control-plane"));
    const env = podEnv(objects, "atrium-cp", {
      "atrium-encryption": {
        "encryption-key-v1": key(),
        "encryption-key-v2": key(),
        "encryption-key": randomBytes(16).toString("base64"),
      },
      "atrium-admin": { "admin-password": "correct horse battery" },
      "atrium-db": { "pg-password": "db-secret" },
      "atrium-tuning": { heartbeat: "20" },
    });
    const config = controlPlaneConfig(env);
    expect(config.databaseUrl).toBe("postgres://atrium_app@postgres.db.svc:6432/atrium_prod?sslmode=require");
    expect(env.PGPASSWORD).toBe("db-secret");
    expect(config.encryption?.keyIds).toEqual(["v1", "v2"]);
    expect(config.encryption?.activeKeyId).toBe("v2");
    expect(config.encryption?.hasLegacyKey).toBe(true);
    expect(config.bootstrap).toEqual({ organization: "acme", username: "root", password: "correct horse battery" });
    expect(config.streamHeartbeatSeconds).toBe(20);
    expect(config.loginTtlSeconds).toBe(3600);
    expect(config.logLevel).toBe("warn");
    expect(config.uiDir).toBe("/app/ui/dist"); // where the control-plane image carries the bundle
    expect(config.uiGatewayOrigins).toEqual(["https://mcp.example.com", "http://mcp-internal.example.com:8080"]);
  });

  it("refuses to start when the key an id names is not 32 bytes (the Secret entry is what it reads)", () => {
    const objects = render("control-plane", "-f", testValuesPath("control-plane"));
    const env = podEnv(objects, "atrium-cp", {
      "atrium-encryption": { "encryption-key-v1": key(), "encryption-key-v2": "c2hvcnQ=", "encryption-key": key() },
      "atrium-admin": { "admin-password": "x" },
      "atrium-db": { "pg-password": "x" },
      "atrium-tuning": { heartbeat: "20" },
    });
    expect(() => controlPlaneConfig(env)).toThrow("encryption key 'v2'");
  });
});

describe("the gateway reads its chart's environment", () => {
  const token = { "atrium-gateway-token": { token: "atr_t_gateway" } };

  it("defaults: token, session key and cluster key from their mounted files, the Service's names", () => {
    const objects = render("gateway");
    const config = gatewayConfig(podEnv(objects, "atrium-gateway", token));
    expect(config.controlPlaneToken).toBe("atr_t_gateway");
    const keystore = secretValues(objects)["atrium-gateway-cluster-keystore"]?.["session-key"] ?? "";
    expect(config.sessionKey).toEqual(Buffer.from(keystore, "base64"));
    expect(config.sessionKey).toHaveLength(32);
    const clusterKey = secretValues(objects)["atrium-gateway-cluster-keystore"]?.["cluster-key"] ?? "";
    expect(config.clusterKey).toEqual(Buffer.from(clusterKey, "base64"));
    expect(config.clusterKey).toHaveLength(32);
    expect(config.fqdns).toEqual(["atrium-gateway.atrium-system.svc.cluster.local:7777"]);
    expect(config.allowedHosts).toEqual(
      new Set([
        "atrium-gateway.atrium-system.svc.cluster.local",
        "atrium-gateway",
        "atrium-gateway.atrium-system",
        "atrium-gateway.atrium-system.svc",
        "localhost",
        "127.0.0.1",
        "[::1]",
      ]),
    );
    expect(config).toMatchObject({
      port: 7777,
      managementHost: "0.0.0.0",
      managementPort: 9090,
      controlPlaneUrl: "http://atrium-control-plane:5555",
      cacheDir: "/var/lib/atrium",
    });
  });

  it("two replicas share the session key; a second release has its own", () => {
    const objects = render("gateway");
    const first = gatewayConfig(podEnv(objects, "atrium-gateway", token));
    const second = gatewayConfig(podEnv(objects, "atrium-gateway", token));
    expect(second.sessionKey).toEqual(first.sessionKey);
    const other = render("gateway");
    expect(gatewayConfig(podEnv(other, "atrium-gateway", token)).sessionKey).not.toEqual(first.sessionKey);
  });

  it("every value: labels, FQDNs, allow-lists, the token under its own key", () => {
    const objects = render("gateway", "-f", testValuesPath("gateway"));
    const config = gatewayConfig(
      podEnv(objects, "atrium-gw", { "gateway-token": { "api-token": "atr_t_x" }, "backend-secrets": { pets: "p" } }),
    );
    expect(config.controlPlaneToken).toBe("atr_t_x");
    expect(config.labels).toEqual({ env: "prod", "atrium.dev/zone": "eu-west-1a" });
    expect(config.fqdns).toEqual(["mcp.example.com", "mcp-internal.example.com:8443"]);
    expect(config.envAllow).toEqual(["PETS_TOKEN", "BILLING_*"]);
    expect(config.allowedHosts?.has("mcp-alias.example.com")).toBe(true);
    expect(config.controlPlaneUrl).toBe("https://atrium-cp.atrium-system.svc:8443");
    expect(config.logLevel).toBe("debug");
    expect(config.corsOrigins).toEqual(["https://atrium.example.com"]);
  });

  it("the deprecated inline token reaches the gateway the same way", () => {
    const objects = render("gateway", "--set", "gateway.controlPlane.token=atr_t_legacy");
    expect(gatewayConfig(podEnv(objects, "atrium-gateway")).controlPlaneToken).toBe("atr_t_legacy");
  });
});

describe("the controllers read their chart's environment", () => {
  it("the operator: token file, Lease in the release namespace, its pod name", () => {
    const objects = render("controllers");
    const config = operatorConfig(
      podEnv(objects, "atrium-controllers-operator", {
        "atrium-operator-token": { token: "atr_t_operator" },
      }),
    );
    expect(config.token).toEqual({ file: expect.stringMatching(/control-plane-token\/token$/) });
    expect(config.watchNamespaces).toEqual([]);
    expect(config.leaderElection).toMatchObject({
      enabled: true,
      namespace: "atrium-system",
      leaseName: "atrium-operator",
    });
    expect(config.identity).toMatch(/^pod-0_/);
    expect(config.port).toBe(8080);
  });

  it("the operator with every value", () => {
    const objects = render("controllers", "-f", testValuesPath("controllers"));
    const config = operatorConfig(podEnv(objects, "atrium-ctl-operator", { "operator-token": { "api-token": "t" } }));
    expect(config.watchNamespaces).toEqual(["team-a", "team-b"]);
    expect(config.leaderElection.leaseName).toBe("atrium-operator-acme");
    expect(config.concurrency).toBe(4);
    expect(config.controlPlaneUrl).toBe("https://atrium-cp.atrium-system.svc:8443");
  });

  it("the webhook: its TLS folder is the mounted certificate Secret", () => {
    const objects = render("controllers");
    const config = webhookConfig(podEnv(objects, "atrium-controllers-webhook"));
    expect(config.port).toBe(9443);
    expect(config.tlsDir).toMatch(/\/tls$/);
    expect(config.tlsDir.startsWith(dir)).toBe(true);
  });
});
