/**
 * One Exposition that cannot be compiled never holds up the others: a backend secret that no
 * longer decrypts leaves its Exposition out of the snapshot and of later changes (gateways drop
 * it, and never receive an empty secret), while the organization's other Expositions stream. A
 * client-credentials client secret, and a backend TLS client certificate or key, is resolved (and
 * left out) like a backend secret.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  openChangeStream,
  registerGateway,
  sampleOpenApi,
  startTestControlPlane,
  type TestControlPlane,
  tokenClient,
} from "../testing.ts";

const gateway = { id: "gw-compile", instanceId: "compile-test-instance" };
let controlPlane: TestControlPlane;
let token: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  controlPlane = await startTestControlPlane("pglite");
  const admin = controlPlane.admin;
  const service = await admin.call("POST", "/api/v1/services", {
    name: "petstore",
    version: "1",
    openapi: { inline: sampleOpenApi() },
  });
  const group = await admin.call("POST", "/api/v1/gateway-groups", { name: "eu", labels: { region: "eu" } });
  const secret = await admin.call("POST", "/api/v1/secrets", { name: "pets", value: "pets-secret-value" });
  ids.secret = secret.body.id;
  for (const [name, backendSecret] of [
    ["with-secret", { secretId: secret.body.id, name: "x-key" }],
    [
      "with-client-secret",
      {
        oauth2ClientCredentials: {
          tokenUrl: "https://auth.example.com/token",
          clientId: "gw",
          clientSecret: { secretId: secret.body.id },
        },
      },
    ],
    ["without-secret", undefined],
  ] as const) {
    const plan = await admin.call("POST", "/api/v1/configuration-plans", {
      name,
      serviceId: service.body.id,
      backendEndpoint: "https://petstore.example.com",
      ...(backendSecret ? { backendSecret } : {}),
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    ids[`${name}-plan`] = plan.body.id;
    const exposition = await admin.call("POST", "/api/v1/expositions", {
      name,
      configurationPlanId: plan.body.id,
      gatewayGroupId: group.body.id,
    });
    ids[name] = exposition.body.id;
  }
  const tlsPlan = await admin.call("POST", "/api/v1/configuration-plans", {
    name: "with-tls",
    serviceId: service.body.id,
    backendEndpoint: "https://petstore.example.com",
    backendTls: {
      clientCertificate: { secretId: secret.body.id },
      clientKey: { file: "/var/run/atrium/backend-tls/pets/tls.key" },
      serverName: "petstore.internal",
    },
  });
  expect(tlsPlan.status, JSON.stringify(tlsPlan.body)).toBe(201);
  const tlsExposition = await admin.call("POST", "/api/v1/expositions", {
    name: "with-tls",
    configurationPlanId: tlsPlan.body.id,
    gatewayGroupId: group.body.id,
  });
  ids["with-tls"] = tlsExposition.body.id;
  ids.group = String(group.body.id);
  const gatewayClient = await tokenClient(controlPlane, "gw");
  token = gatewayClient.token as string;
  await registerGateway(gatewayClient, gateway, { region: "eu" });
});
afterAll(async () => {
  await controlPlane?.close();
});

describe("compiling Expositions", () => {
  it("leaves out one whose secret does not decrypt, and streams the others", async () => {
    const before = await openChangeStream(controlPlane.url, token, gateway);
    try {
      const snapshot = await before.next("snapshot");
      const withSecret = snapshot.expositions.find((e: { id: string }) => e.id === ids["with-secret"]);
      expect(withSecret.plan.backendSecret).toMatchObject({ source: "value", value: "pets-secret-value" });
      // Each carries its Service's kind, so a gateway can refuse a kind it does not call.
      expect(withSecret.service.kind).toBe("openapi");
      // A client-credentials client secret is resolved the same way.
      const withClientSecret = snapshot.expositions.find((e: { id: string }) => e.id === ids["with-client-secret"]);
      expect(withClientSecret.plan.backendSecret).toEqual({
        source: "oauth2ClientCredentials",
        in: "header",
        name: "Authorization",
        clientCredentials: {
          tokenUrl: "https://auth.example.com/token",
          clientId: "gw",
          tokenEndpointAuthMethod: "client_secret_basic",
          clientSecret: { source: "value", value: "pets-secret-value" },
        },
      });
      // A backend TLS client certificate from a stored secret too; a file stays a path.
      const withTls = snapshot.expositions.find((e: { id: string }) => e.id === ids["with-tls"]);
      expect(withTls.plan.backendTls).toEqual({
        clientCertificate: { source: "value", value: "pets-secret-value" },
        clientKey: { source: "file", path: "/var/run/atrium/backend-tls/pets/tls.key" },
        serverName: "petstore.internal",
      });
    } finally {
      before.close();
    }

    // As after a key was dropped from the key set, or a row was damaged.
    await controlPlane.database.db.execute(
      sql`update secrets set encrypted_value = 'not-a-ciphertext' where id = ${ids.secret}`,
    );
    const stream = await openChangeStream(controlPlane.url, token, gateway);
    try {
      const snapshot = await stream.next("snapshot");
      expect(snapshot.expositions.map((e: { id: string }) => e.id)).toEqual([ids["without-secret"]]);
      // Later changes still flow; the broken one is never sent, never with an empty secret.
      const admin = controlPlane.admin;
      const added = await admin.call("POST", "/api/v1/expositions", {
        name: "added",
        configurationPlanId: ids["without-secret-plan"],
        gatewayGroupId: Number(ids.group),
      });
      expect((await stream.next("changes")).upserts.map((e: { id: string }) => e.id)).toEqual([added.body.id]);
      await admin.call("PUT", `/api/v1/configuration-plans/${ids["with-secret-plan"]}`, {
        name: "with-secret",
        serviceId: (await admin.call("GET", `/api/v1/configuration-plans/${ids["with-secret-plan"]}`)).body.serviceId,
        backendEndpoint: "https://petstore.example.com/v2",
        backendSecret: { secretId: ids.secret, name: "x-key" },
      });
      // Nothing to send for it; the stream goes on with the next change.
      const second = await admin.call("POST", "/api/v1/expositions", {
        name: "added-second",
        configurationPlanId: ids["without-secret-plan"],
        gatewayGroupId: Number(ids.group),
      });
      const change = await stream.next("changes");
      expect(change.upserts.map((e: { id: string }) => e.id)).toEqual([second.body.id]);
      expect(change.deletes).toEqual([]);
      expect(JSON.stringify(stream.events)).not.toContain('"value":""');
    } finally {
      stream.close();
    }
  });
});
